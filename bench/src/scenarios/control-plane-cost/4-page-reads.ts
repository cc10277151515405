import { abPair } from '../../drivers/ab-pair';
import { CONTROL_PLANE } from './_control-plane';

export default abPair({ ...CONTROL_PLANE, kind: 'json', work: { events: (c) => c.controlPlane.readEvents } });
