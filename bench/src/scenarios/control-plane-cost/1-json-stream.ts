import { abPair } from '../../drivers/ab-pair';
import { CONTROL_PLANE } from './_control-plane';

export default abPair({
  ...CONTROL_PLANE,
  kind: 'json',
  work: {
    label: 'JSON: transient POST /api/message -> event-stream WebSocket clients',
    clients: 'event-stream',
    count: (c) => c.controlPlane.streamClients,
  },
});
