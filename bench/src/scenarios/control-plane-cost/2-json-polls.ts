import { deliveries } from './_control-plane';

const label = 'JSON: durable POST /api/message -> held GET /customerapi/events polls';
export default deliveries('json', 'json-polls', label);
