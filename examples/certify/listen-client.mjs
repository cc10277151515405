// A well-behaved consumer of GET /customerapi/channels/listen, the legacy XML long poll: the way
// we recommend writing one, and what `racedata-sim certify listen` passes in full.
//
//   racedata-sim certify listen -- node examples/certify/listen-client.mjs
//
// It reads RACEDATA_URL, RACEDATA_KEY and RACEDATA_SECRET. The broken variants in broken/
// replace one of the decisions in `behaviour`.
import { pathToFileURL } from 'node:url';
import { authenticate, log, pollTimeoutMs, retryAfterMs, sleep } from './http-helpers.mjs';

export const behaviour = {
  // 4.2: "The client stores it and immediately sends a new request."
  afterMessage: async () => {},
  // 4.2: a 204 is "Timeout waiting; make a new request": at once.
  afterNoContent: async () => {},
  // 5.4 and 7.2: 401 includes an expired token; authenticate again.
  reauthenticateOn401: true,
  afterUnavailable: (res) => sleep(retryAfterMs(res.headers.get('retry-after'), 1000)),
  // The server keeps the queue while we are away (4.2), so a quick retry loses nothing; at most
  // 2 attempts a second while it is down, and never give up.
  afterNetworkError: () => sleep(500),
  // A listen with no answer past the long-poll limit is lost: give up on it and ask again.
  requestTimeoutMs: pollTimeoutMs,
};

export async function consumeListen(env, onXml, rules = behaviour) {
  const base = env.RACEDATA_URL;
  let token = await authenticate(base, env.RACEDATA_KEY, env.RACEDATA_SECRET);
  for (;;) {
    let res;
    let xml;
    try {
      const timeout = rules.requestTimeoutMs(env);
      res = await fetch(`${base}/customerapi/channels/listen`, {
        headers: { authorization: `Bearer ${token}` },
        ...(timeout !== undefined && { signal: AbortSignal.timeout(timeout) }),
      });
      // The body is a JSON string holding one XML document, read under the same timeout.
      if (res.status === 200) xml = JSON.parse(await res.text());
    } catch (err) {
      log(`listen failed (${err.cause?.code ?? err.name ?? err.message}); retrying`);
      await rules.afterNetworkError(err);
      continue;
    }
    if (res.status === 200) {
      // A document it does not know is passed on as it is: the XML structure is not fixed (2.4).
      onXml(xml);
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
