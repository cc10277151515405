import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import type { Clock, Logger, SimulatorSettings, TokenService, UserTable } from '@racedata/core';
import type { HealthBody } from '@racedata/control';
import type { ChannelBus } from '../channel-bus';
import { authenticateRoute } from './authenticate-route';
import { errorMiddleware, notFound } from './error-middleware';
import { EventsEndpoint, eventsRoute } from './events-route';
import { filteredEventsRoute } from './filtered-events-route';
import { jsonBody } from './json-body';
import { messageRoute } from './message-route';
import { PostAudience, type PostPresence } from './post-audience';
import { AUTHENTICATE_PATH, MESSAGE_PATH } from '../description';
import { directReads, EVENTS_PATH, FILTERED_EVENTS_PATH } from './read-path';
import { requireUser } from './require-user';

export interface JsonAppDeps {
  bus: ChannelBus;
  users: UserTable;
  tokens: TokenService;
  clock: Clock;
  logger: Logger;
  settings: SimulatorSettings;
  /** Who is connected now, for the post answer's headers. */
  presence: PostPresence;
  /** The body of GET /health. */
  health: () => HealthBody;
}

export interface JsonHttp {
  readonly app: Express;
  /** The server's request listener: the read endpoints directly, everything else through `app`. */
  readonly handler: RequestListener;
}

export function createJsonHttp(deps: JsonAppDeps): JsonHttp {
  const { bus, users, tokens, clock, logger, settings } = deps;
  const events = new EventsEndpoint({ bus, clock, settings });
  const filtered = { bus, settings };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const json = jsonBody(settings.maxBodyBytes);
  const authed = requireUser(tokens);

  app.get('/health', (_req, res) => {
    res.json(deps.health());
  });
  app.post([AUTHENTICATE_PATH, `${AUTHENTICATE_PATH}/`], json, authenticateRoute(users, tokens));
  // Express answers HEAD with GET routes; section 7.3 allows GET only.
  app.head([EVENTS_PATH, FILTERED_EVENTS_PATH], notFound());
  app.get(EVENTS_PATH, authed, eventsRoute(events));
  app.get(FILTERED_EVENTS_PATH, authed, filteredEventsRoute(filtered));
  const audience = new PostAudience(users, deps.presence, logger);
  app.post(MESSAGE_PATH, json, messageRoute(bus, logger, audience, settings.strictPayloads));
  app.use(notFound());
  app.use(errorMiddleware(logger));
  return { app, handler: directReads({ app, tokens, events, filtered, logger }) };
}
