// What both long-poll reference clients share: authenticating, Retry-After, a pause, a log line.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Interface 4.1 and 5: key and secret in, the token back in the `authorization` header. */
export async function authenticate(base, key, secret) {
  for (;;) {
    try {
      const res = await fetch(`${base}/customerapi/authenticate/subscription`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key, secret }),
      });
      await res.arrayBuffer();
      const token = /^Bearer\s+(\S+)$/i.exec(res.headers.get('authorization') ?? '')?.[1];
      if (res.status === 200 && token) return token;
      log(`authentication answered ${res.status}`);
    } catch (err) {
      log(`authentication failed (${err.cause?.code ?? err.message})`);
    }
    await sleep(1000);
  }
}

/** Retry-After in seconds (the only form the simulator sends), else the fallback. */
export function retryAfterMs(header, fallbackMs) {
  const seconds = Number(header ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 60_000) : fallbackMs;
}

/**
 * The long-poll limit certify gives (RACEDATA_LONG_POLL_MS); production's simulators hold a poll
 * 60 s (interface 8). A poll with no answer well past it is lost: give up on it and ask again.
 */
export function pollTimeoutMs(env) {
  const limit = Number(env.RACEDATA_LONG_POLL_MS ?? 60_000);
  const known = Number.isFinite(limit) && limit > 0 ? limit : 60_000;
  return known + Math.max(2_000, known / 2);
}

/** Diagnostics go to stderr: stdout is for what the client processed. */
export function log(line) {
  process.stderr.write(`${new Date().toISOString()} ${line}\n`);
}
