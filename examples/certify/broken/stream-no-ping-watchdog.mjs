// Broken on purpose (certify's `detects-silent-stream` must fail): it never watches for Pings, so
// a connection that went silent with its socket open is kept for ever.
import { runStreamClient } from '../stream-client.mjs';

runStreamClient({ noWatchdog: true });
