// Broken on purpose (certify's `reconnect-after-close` must fail): reconnects but subscribes
// only on its first session.
import { runStompClient } from '../stomp-client.mjs';

runStompClient({ subscribeOnce: true });
