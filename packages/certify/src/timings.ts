import type { CertifyTimings } from './types';

/**
 * Production waits in minutes (a 60 s long poll, a Ping a minute, a 24 h token) would make a
 * suite last an hour; these keep each suite under a minute while every rule still shows. They are
 * printed at start so a client can set its own timeouts to match.
 */
export const CERTIFY_TIMINGS: CertifyTimings = {
  longPollTimeoutMs: 2_000,
  pingIntervalMs: 1_000,
  authTimeoutMs: 3_000,
  // Long enough that no token dies on its own during a suite: scenarios expire tokens on purpose.
  tokenTtlSeconds: 300,
  stompHeartBeatMs: 1_000,
};

/** The timings as one line for the terminal and the report's header. */
export function describeTimings(t: CertifyTimings): string {
  return (
    `long-poll timeout ${t.longPollTimeoutMs} ms, ping interval ${t.pingIntervalMs} ms, ` +
    `token deadline ${t.authTimeoutMs} ms, token lifetime ${t.tokenTtlSeconds} s, ` +
    `STOMP heart-beat ${t.stompHeartBeatMs} ms`
  );
}
