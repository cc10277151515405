import { fanOut } from '../../drivers/fan-out';

const label = 'JSON: transient /api/message -> WebSocket clients';
export default fanOut({ label, kind: 'json', clients: 'event-stream' });
