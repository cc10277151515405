import { latency } from '../../drivers/latency';

export default latency({
  label: 'JSON: POST /api/message -> held GET /customerapi/events',
  kind: 'json',
  ours: 'json-polls',
  bare: 'bare-polls',
});
