import { deliveries } from './_control-plane';

export default deliveries('legacy', 'stomp', 'legacy: POST NonDurable -> STOMP subscribers');
