import { latency } from '../../drivers/latency';

const label = 'legacy: POST NonDurable -> STOMP MESSAGE';
export default latency({ label, kind: 'legacy', ours: 'stomp', bare: 'bare-ws' });
