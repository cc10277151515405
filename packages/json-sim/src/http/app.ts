import express, { type Express } from 'express';
import type { ChannelBus, Clock, Logger, SimulatorSettings, TokenService, UserTable } from '@racedata/core';
import { authenticateRoute } from './authenticate-route';
import { errorMiddleware, notFound } from './error-middleware';
import { eventsRoute } from './events-route';
import { filteredEventsRoute } from './filtered-events-route';
import { messageRoute } from './message-route';
import { requireUser } from './require-user';

export interface JsonAppDeps {
  bus: ChannelBus<unknown>;
  users: UserTable;
  tokens: TokenService;
  clock: Clock;
  logger: Logger;
  settings: SimulatorSettings;
}

export function createJsonApp(deps: JsonAppDeps): Express {
  const { bus, users, tokens, clock, logger, settings } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Parse JSON whatever the content type says: `curl -d` sends form encoding by default.
  const json = express.json({ limit: settings.maxBodyBytes, type: () => true });
  const authed = requireUser(tokens);

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', simulator: 'json' });
  });
  app.post(
    ['/customerapi/authenticate/subscription', '/customerapi/authenticate/subscription/'],
    json,
    authenticateRoute(users, tokens),
  );
  // Express answers HEAD with GET routes; section 7.3 allows GET only.
  app.head(['/customerapi/events', '/customerapi/filtered-events'], notFound());
  app.get('/customerapi/events', authed, eventsRoute({ bus, clock, settings }));
  app.get('/customerapi/filtered-events', authed, filteredEventsRoute({ bus, settings }));
  app.post('/api/message', json, messageRoute(bus, logger));
  app.use(notFound());
  app.use(errorMiddleware(logger));
  return app;
}
