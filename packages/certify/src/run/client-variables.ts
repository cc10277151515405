import type { CertifyServer } from '../server/certify-server';
import type { Suite } from '../types';
import type { ClientVariables } from './progress';

/** The STOMP endpoint and destination the legacy variables name (the vendor's /api/v1 forms). */
const STOMP_ENDPOINT = '/api/v1/channels/connect';
const STOMP_DESTINATION = '/api/v1/channels/user/topic/publish';

/** The RACEDATA_* variables a client of this suite is started with. */
export function clientVariables(suite: Suite, server: CertifyServer): ClientVariables {
  return {
    RACEDATA_SUITE: suite,
    RACEDATA_URL: server.base,
    RACEDATA_WS_URL: server.wsBase,
    RACEDATA_KEY: server.user.key,
    RACEDATA_SECRET: server.user.secret,
    ...(server.simulator === 'legacy' && {
      RACEDATA_STOMP_URL: `${server.wsBase}${STOMP_ENDPOINT}`,
      RACEDATA_STOMP_DESTINATION: STOMP_DESTINATION,
    }),
  };
}
