// BROKEN on purpose (fails reauth-after-401): once its token expires it keeps listening with it
// every second, answered 401 for ever (interface 5.4, 7.2).
import { behaviour, consumeListen } from '../listen-client.mjs';

await consumeListen(process.env, (xml) => process.stdout.write(`${xml}\n`), {
  ...behaviour,
  reauthenticateOn401: false,
});
