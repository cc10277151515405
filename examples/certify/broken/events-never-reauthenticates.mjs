// BROKEN on purpose (fails reauth-after-401): it authenticates once at start and, once its token
// expires, keeps polling with it every second, answered 401 for ever (interface 5.4).
import { behaviour, consumeEvents } from '../events-client.mjs';

await consumeEvents(process.env, (event) => process.stdout.write(`${event.eventId}\n`), {
  ...behaviour,
  reauthenticateOn401: false,
});
