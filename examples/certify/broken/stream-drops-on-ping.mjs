// Broken on purpose (certify's `ignores-ping` must fail): closes its socket on every Ping.
import { runStreamClient } from '../stream-client.mjs';

runStreamClient({ dropOnPing: true });
