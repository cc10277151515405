import { latency } from '../../drivers/latency';

export default latency({
  label: 'legacy: POST NonDurable -> STOMP MESSAGE',
  kind: 'legacy',
  ours: 'stomp',
  bare: 'bare-ws',
});
