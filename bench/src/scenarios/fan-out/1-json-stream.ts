import { fanOut } from '../../drivers/fan-out';

export default fanOut({
  label: 'JSON: transient /api/message -> WebSocket clients',
  kind: 'json',
  clients: 'event-stream',
});
