// BROKEN on purpose (fails survives-restart): it takes a refused connection (ECONNREFUSED) for
// a fatal error and exits, as many consumers do when their server restarts.
import { log, sleep } from '../http-helpers.mjs';
import { behaviour, consumeEvents } from '../events-client.mjs';

await consumeEvents(process.env, (event) => process.stdout.write(`${event.eventId}\n`), {
  ...behaviour,
  afterNetworkError: (err) => {
    if (err?.cause?.code === 'ECONNREFUSED') {
      log('the server refused the connection; giving up');
      process.exit(1);
    }
    return sleep(500);
  },
});
