// Broken on purpose (certify's `heart-beats` must fail): offers to beat every 2 s in CONNECT,
// then never sends a heart-beat, so the server closes its session (1008) for the silence.
import { runStompClient } from '../stomp-client.mjs';

runStompClient({ silentHeartBeats: true });
