// A well-behaved consumer of GET /customerapi/channels/listen, the legacy XML long poll: the way
// we recommend writing one, and what `racedata-sim certify listen` passes in full.
//
//   racedata-sim certify listen -- node examples/certify/listen-client.mjs
//
// It reads RACEDATA_URL, RACEDATA_KEY and RACEDATA_SECRET. The broken variants in broken/
// replace one of the decisions in `behaviour`.
import { pathToFileURL } from 'node:url';
import { authenticate, log, retryAfterMs, sleep } from './http-helpers.mjs';

export const behaviour = {
  // 4.2: "The client stores it and immediately sends a new request."
  afterMessage: async () => {},
  // 4.2: a 204 is "Timeout waiting; make a new request": at once.
  afterNoContent: async () => {},
  // 5.4 and 7.2: 401 includes an expired token; authenticate again.
  reauthenticateOn401: true,
  afterUnavailable: (res) => sleep(retryAfterMs(res.headers.get('retry-after'), 1000)),
  // The server keeps the queue while we are away (4.2), so a quick retry loses nothing.
  afterNetworkError: () => sleep(500),
};

export async function consumeListen(env, onXml, rules = behaviour) {
  const base = env.RACEDATA_URL;
  let token = await authenticate(base, env.RACEDATA_KEY, env.RACEDATA_SECRET);
  for (;;) {
    let res;
    try {
      res = await fetch(`${base}/customerapi/channels/listen`, {
        headers: { authorization: `Bearer ${token}` },
      });
    } catch (err) {
      log(`listen failed (${err.cause?.code ?? err.message}); retrying`);
      await rules.afterNetworkError();
      continue;
    }
    if (res.status === 200) {
      // The body is a JSON string holding one XML document.
      onXml(JSON.parse(await res.text()));
      await rules.afterMessage();
    } else if (res.status === 204) {
      await res.arrayBuffer();
      await rules.afterNoContent();
    } else if (res.status === 401 && rules.reauthenticateOn401) {
      await res.arrayBuffer();
      token = await authenticate(base, env.RACEDATA_KEY, env.RACEDATA_SECRET);
    } else {
      log(`GET /customerapi/channels/listen answered ${res.status}`);
      await rules.afterUnavailable(res);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await consumeListen(process.env, (xml) => process.stdout.write(`${xml.replace(/\s+/g, ' ')}\n`));
}
