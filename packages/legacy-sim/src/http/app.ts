import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import type { Logger, TokenService, UserTable } from '@racedata/core';
import type { HealthBody, Journal } from '@racedata/control';
import { basicAuthenticate, subscriptionAuthenticate } from './authenticate-routes';
import { errorMiddleware, notFound, onlyGet } from './error-middleware';
import { Delivery } from './delivery';
import { injectRoute } from './inject-routes';
import { directInject } from './direct-inject';
import { directListen, LISTEN_PATH } from './direct-listen';
import { ListenEndpoint } from './listen-poll';
import { listenRoute } from './listen-route';
import { BASIC_AUTHENTICATE_PATH, SUBSCRIPTION_AUTHENTICATE_PATH } from '../description';
import type { LegacyBus } from '../legacy-bus';
import type { LegacyQueues } from '../queue/legacy-queues';

export interface LegacyAppDeps {
  users: UserTable;
  tokens: TokenService;
  queues: LegacyQueues;
  bus: LegacyBus;
  logger: Logger;
  longPollTimeoutMs: number;
  maxBodyBytes: number;
  journal?: Journal;
  /** The body of GET /health. */
  health: () => HealthBody;
}

export interface LegacyHttp {
  readonly app: Express;
  /**
   * The server's request listener: held listens and plain injections directly (direct-listen.ts,
   * direct-inject.ts), everything else through `app`.
   */
  readonly handler: RequestListener;
}

/** The legacy simulator's HTTP surface; the STOMP endpoint is attached to the server separately. */
export function createLegacyHttp(deps: LegacyAppDeps): LegacyHttp {
  const app = express();
  app.disable('x-powered-by');
  // No ETags: a conditional request must never turn an answer into a 304 without a body.
  app.set('etag', false);
  const auth = { users: deps.users, tokens: deps.tokens, maxBodyBytes: deps.maxBodyBytes };
  const inject = { bus: deps.bus, maxBodyBytes: deps.maxBodyBytes };

  const delivery = new Delivery();
  const listen = new ListenEndpoint({ ...deps, delivery });
  app.use(delivery.confirmOnNextRequest);
  app.get('/health', (_req, res) => {
    res.json(deps.health());
  });
  // Express routes ignore a trailing slash, so the vendor's `/subscription/` spelling matches too.
  app.post(SUBSCRIPTION_AUTHENTICATE_PATH, ...subscriptionAuthenticate(auth));
  app.post(BASIC_AUTHENTICATE_PATH, ...basicAuthenticate(auth));
  // Express answers HEAD with the GET handler; a HEAD must not take a message it cannot carry.
  app.head(LISTEN_PATH, onlyGet());
  app.get(LISTEN_PATH, listenRoute(deps.tokens, listen));
  app.all(LISTEN_PATH, onlyGet());
  app.post('/customerapi/channel/:channelId/Durable', ...injectRoute('durable', inject));
  app.post('/customerapi/channel/:channelId/NonDurable', ...injectRoute('transient', inject));
  app.use(notFound());
  app.use(errorMiddleware(deps.logger));
  const others = directInject({
    others: app,
    bus: deps.bus,
    maxBodyBytes: deps.maxBodyBytes,
    logger: deps.logger,
  });
  return { app, handler: directListen({ app, others, tokens: deps.tokens, listen, delivery }) };
}
