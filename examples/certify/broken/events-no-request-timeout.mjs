// BROKEN on purpose (fails gives-up-on-stalled-poll): its polls have no timeout, so a poll the
// server never answers (no 204 at the limit, not a byte) waits for ever.
import { behaviour, consumeEvents } from '../events-client.mjs';

await consumeEvents(process.env, (event) => process.stdout.write(`${event.eventId}\n`), {
  ...behaviour,
  requestTimeoutMs: () => undefined,
});
