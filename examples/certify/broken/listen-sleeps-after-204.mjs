// BROKEN on purpose (fails repoll-after-204): it sleeps after a 204 instead of asking again at
// once, as interface 4.2 says ("Timeout waiting; make a new request").
import { sleep } from '../http-helpers.mjs';
import { behaviour, consumeListen } from '../listen-client.mjs';

await consumeListen(process.env, (xml) => process.stdout.write(`${xml}\n`), {
  ...behaviour,
  afterNoContent: () => sleep(3000),
});
