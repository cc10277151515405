// BROKEN on purpose (fails backoff-on-5xx): it retries a 503 at once, ignoring Retry-After.
import { behaviour, consumeEvents } from '../events-client.mjs';

await consumeEvents(process.env, (event) => process.stdout.write(`${event.eventId}\n`), {
  ...behaviour,
  afterUnavailable: async () => {},
});
