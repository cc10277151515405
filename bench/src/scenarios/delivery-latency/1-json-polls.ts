import { latency } from '../../drivers/latency';

const label = 'JSON: POST /api/message -> held GET /customerapi/events';
export default latency({ label, kind: 'json', ours: 'json-polls', bare: 'bare-polls' });
