// BROKEN on purpose (fails follows-last-event-id): it takes lastEventId from the last answer
// instead of remembering it, so an empty 204 sends it back to 0 and it reads everything again.
import { behaviour, consumeEvents } from '../events-client.mjs';

await consumeEvents(process.env, (event) => process.stdout.write(`${event.eventId}\n`), {
  ...behaviour,
  nextLastEventId: (_current, page) => page.events.at(-1)?.eventId ?? 0,
});
