import { abPair } from '../../drivers/ab-pair';
import { CONTROL_PLANE } from './_control-plane';

export default abPair({
  ...CONTROL_PLANE,
  kind: 'legacy',
  work: {
    label: 'legacy: POST NonDurable -> STOMP subscribers',
    clients: 'stomp',
    count: (c) => c.controlPlane.streamClients,
  },
});
