// A well-behaved consumer of GET /customerapi/events, the JSON long poll: the way we recommend
// writing one, and what `racedata-sim certify events` passes in full.
//
//   racedata-sim certify events -- node examples/certify/events-client.mjs
//
// It reads RACEDATA_URL, RACEDATA_KEY and RACEDATA_SECRET. Each rule it follows names the
// section of the interface it comes from. The broken variants in broken/ replace one of the
// decisions in `behaviour` to show what certify catches.
import { pathToFileURL } from 'node:url';
import { authenticate, log, pollTimeoutMs, retryAfterMs, sleep } from './http-helpers.mjs';

/** What the consumer does at each turn; a broken variant replaces one of these. */
export const behaviour = {
  // 2.5: remember the last eventId received and send it as lastEventId in the next request.
  nextLastEventId: (current, page) => page.events.at(-1)?.eventId ?? current,
  // 4.3: after a 200, ask again at once; with hasMore the rest is waiting already.
  afterPage: async () => {},
  // 4.3: a 204 means the hold time passed with nothing new: ask again at once.
  afterNoContent: async () => {},
  // 5.4: an expired token answers 401; authenticate again and carry on from the same place.
  reauthenticateOn401: true,
  // 503 and 429 say when to come back (Retry-After); without it, wait a second.
  afterUnavailable: (res) => sleep(retryAfterMs(res.headers.get('retry-after'), 1000)),
  // A reset or refused connection (a server restarting): try again soon, from the same
  // lastEventId; at most 2 attempts a second, and never give up.
  afterNetworkError: () => sleep(500),
  // A poll with no answer past the long-poll limit is lost (a proxy or a half-dead server):
  // give up on it and ask again.
  requestTimeoutMs: pollTimeoutMs,
};

export async function consumeEvents(env, onEvent, rules = behaviour) {
  const base = env.RACEDATA_URL;
  let token = await authenticate(base, env.RACEDATA_KEY, env.RACEDATA_SECRET);
  let lastEventId = 0;
  for (;;) {
    let res;
    let page;
    try {
      const timeout = rules.requestTimeoutMs(env);
      res = await fetch(`${base}/customerapi/events?lastEventId=${lastEventId}`, {
        headers: { authorization: `Bearer ${token}` },
        ...(timeout !== undefined && { signal: AbortSignal.timeout(timeout) }),
      });
      // The body is read under the same timeout: an answer that stalls halfway is lost too.
      if (res.status === 200) page = (await res.json()).data;
    } catch (err) {
      log(`poll failed (${err.cause?.code ?? err.name ?? err.message}); retrying`);
      await rules.afterNetworkError(err);
      continue;
    }
    if (res.status === 200) {
      // Fields, channels and payloads it does not know are passed on as they are.
      for (const event of page.events) onEvent(event);
      lastEventId = rules.nextLastEventId(lastEventId, page);
      await rules.afterPage(page);
    } else if (res.status === 204) {
      await res.arrayBuffer();
      lastEventId = rules.nextLastEventId(lastEventId, { events: [] }, res.status);
      await rules.afterNoContent();
    } else if (res.status === 401 && rules.reauthenticateOn401) {
      await res.arrayBuffer();
      token = await authenticate(base, env.RACEDATA_KEY, env.RACEDATA_SECRET);
    } else {
      log(`GET /customerapi/events answered ${res.status}`);
      await rules.afterUnavailable(res);
    }
  }
}

// Run as a program: print each eventId it processed (what `--echo stdout` reads).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await consumeEvents(process.env, (event) => process.stdout.write(`${event.eventId}\n`));
}
