import { latency } from '../../drivers/latency';

const label = 'JSON: POST /api/message -> WebSocket Data';
export default latency({ label, kind: 'json', ours: 'event-stream', bare: 'bare-ws' });
