// BROKEN on purpose (fails backlog-complete): it paces itself with a pause after every page and
// does not skip the pause when hasMore says more is already waiting, so a backlog trickles in.
import { sleep } from '../http-helpers.mjs';
import { behaviour, consumeEvents } from '../events-client.mjs';

await consumeEvents(process.env, (event) => process.stdout.write(`${event.eventId}\n`), {
  ...behaviour,
  afterPage: () => sleep(900),
});
