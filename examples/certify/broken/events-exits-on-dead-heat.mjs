// BROKEN on purpose (fails survives-edge-cases): it files a result's placings by place, taking a
// place for a unique key, so a dead heat (two horses sharing a place) throws and the uncaught
// error ends the process. Places are not unique keys (docs/race-days.md, `dead-heat`).
import { behaviour, consumeEvents } from '../events-client.mjs';

function placingsByPlace(result) {
  const byPlace = new Map();
  for (const placing of result?.placings ?? []) {
    if (byPlace.has(placing.place)) throw new Error(`two horses placed ${placing.place}`);
    byPlace.set(placing.place, placing);
  }
  return byPlace;
}

await consumeEvents(
  process.env,
  (event) => {
    if (event.channel?.startsWith('Result')) placingsByPlace(event.payload);
    process.stdout.write(`${event.eventId}\n`);
  },
  behaviour,
);
