import { latency } from '../../drivers/latency';

export default latency({
  label: 'JSON: POST /api/message -> WebSocket Data',
  kind: 'json',
  ours: 'event-stream',
  bare: 'bare-ws',
});
