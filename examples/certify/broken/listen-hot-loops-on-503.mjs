// BROKEN on purpose (fails backoff-on-5xx): it retries a 503 at once, ignoring Retry-After.
import { behaviour, consumeListen } from '../listen-client.mjs';

await consumeListen(process.env, (xml) => process.stdout.write(`${xml}\n`), {
  ...behaviour,
  afterUnavailable: async () => {},
});
