import { fanOut } from '../../drivers/fan-out';

export default fanOut({ label: 'legacy: NonDurable -> STOMP subscribers', kind: 'legacy', clients: 'stomp' });
