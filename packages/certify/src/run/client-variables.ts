import type { CertifyServer } from '../server/certify-server';
import type { CertifyTimings, Suite } from '../types';
import type { ClientVariables } from './progress';

/** The STOMP endpoint and destination the legacy variables name (the vendor's /api/v1 forms). */
const STOMP_ENDPOINT = '/api/v1/channels/connect';
const STOMP_DESTINATION = '/api/v1/channels/user/topic/publish';

/**
 * The RACEDATA_* variables a client of this suite is started with. The two timings are the
 * simulator's during the certification, so a client can scale its own timeouts (a Ping watchdog,
 * a long-poll request timeout) from them; production's are a minute each (interface 8).
 */
export function clientVariables(
  suite: Suite,
  server: CertifyServer,
  timings: CertifyTimings,
): ClientVariables {
  return {
    RACEDATA_SUITE: suite,
    RACEDATA_URL: server.base,
    RACEDATA_WS_URL: server.wsBase,
    RACEDATA_KEY: server.user.key,
    RACEDATA_SECRET: server.user.secret,
    RACEDATA_LONG_POLL_MS: String(timings.longPollTimeoutMs),
    RACEDATA_PING_INTERVAL_MS: String(timings.pingIntervalMs),
    ...(server.simulator === 'legacy' && {
      RACEDATA_STOMP_URL: `${server.wsBase}${STOMP_ENDPOINT}`,
      RACEDATA_STOMP_DESTINATION: STOMP_DESTINATION,
    }),
  };
}
