import { deliveries } from './_control-plane';

const label = 'JSON: transient POST /api/message -> event-stream WebSocket clients';
export default deliveries('json', 'event-stream', label);
