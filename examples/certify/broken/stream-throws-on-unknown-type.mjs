// Broken on purpose (certify's `tolerates-unknown` must fail): a message type it does not know
// throws, and the uncaught error ends the process.
import { runStreamClient } from '../stream-client.mjs';

runStreamClient({ throwOnUnknownType: true });
