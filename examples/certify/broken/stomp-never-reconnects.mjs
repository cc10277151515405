// Broken on purpose (certify's `reconnect-after-close` must fail): once closed, stays closed.
import { runStompClient } from '../stomp-client.mjs';

runStompClient({ neverReconnect: true });
// Like a service whose stream died while the rest of it runs on: the process stays up.
setInterval(() => undefined, 60_000);
