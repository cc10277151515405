import { abPair } from '../../drivers/ab-pair';
import { CONTROL_PLANE } from './_control-plane';

export default abPair({
  ...CONTROL_PLANE,
  kind: 'json',
  work: {
    label: 'JSON: durable POST /api/message -> held GET /customerapi/events polls',
    clients: 'json-polls',
    count: (c) => c.controlPlane.pollClients,
  },
});
