// BROKEN on purpose (fails repoll-after-204): it reads a 204 as "nothing to do" and sleeps, so
// events that arrive meanwhile wait for it; the interface says to ask again at once (4.3).
import { sleep } from '../http-helpers.mjs';
import { behaviour, consumeEvents } from '../events-client.mjs';

await consumeEvents(process.env, (event) => process.stdout.write(`${event.eventId}\n`), {
  ...behaviour,
  afterNoContent: () => sleep(3000),
});
