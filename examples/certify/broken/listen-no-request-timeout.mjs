// BROKEN on purpose (fails gives-up-on-stalled-poll): its listens have no timeout, so one the
// server never answers waits for ever while messages pile up in its queue.
import { behaviour, consumeListen } from '../listen-client.mjs';

await consumeListen(process.env, (xml) => process.stdout.write(`${xml.replace(/\s+/g, ' ')}\n`), {
  ...behaviour,
  requestTimeoutMs: () => undefined,
});
