// Broken on purpose (certify's `detects-silent-session` must fail): it asks the server for
// heart-beats in CONNECT and never checks that they come, so a silent connection is kept for ever.
import { runStompClient } from '../stomp-client.mjs';

runStompClient({ ignoreMissingHeartBeats: true });
