'use strict';
// What a test suite pays to start the simulators in its own process, in a fresh process as a
// test runner's worker is: `testkit` loads the test kit (the root package's bundle of the checkout
// measured) and awaits startSimulators() (both simulators, default settings) until each answers
// GET /health; `bare` is the same with `require('node:http')` and two bare servers. Prints the ms
// from the first line of this script as JSON on stdout, then closes what it started.
const started = performance.now();
const http = require('node:http');
const { once } = require('node:events');

async function health(url) {
  const [res] = await once(http.get(`${url}/health`), 'response');
  await once(res.resume(), 'end');
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
}

async function bareServer() {
  const server = http.createServer((_req, res) => res.end('{"status":"ok"}')).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

async function main(mode, bundle) {
  if (mode === 'testkit') {
    const { startSimulators } = require(bundle);
    const loadMs = performance.now() - started;
    const sims = await startSimulators();
    await Promise.all([health(sims.jsonUrl), health(sims.legacyUrl)]);
    const ms = performance.now() - started;
    await sims.close();
    return { ms, loadMs };
  }
  const servers = await Promise.all([bareServer(), bareServer()]);
  await Promise.all(servers.map((s) => health(s.url)));
  const ms = performance.now() - started;
  for (const s of servers) s.close();
  return { ms };
}

main(process.argv[2], process.argv[3]).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (err) => {
    process.stderr.write(`${err.stack || err}\n`);
    process.exitCode = 1;
  },
);
