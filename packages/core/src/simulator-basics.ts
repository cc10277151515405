import { jsonChannelCatalog, legacyChannelCatalog, type ChannelCatalog } from './channel-catalog';
import { systemClock, type Clock } from './clock';
import { silentLogger, type Logger } from './logger';
import { resolveSettings, type SimulatorKind, type SimulatorSettings } from './settings';
import { TokenService } from './tokens';
import { JSON_USERS, LEGACY_USERS, UserTable } from './users';

/** What an embedder or test may hand a simulator factory instead of the built-in defaults. */
export interface SimulatorBasicsDeps {
  logger?: Logger;
  clock?: Clock;
  catalog?: ChannelCatalog;
  users?: UserTable;
}

export interface SimulatorBasics {
  readonly settings: SimulatorSettings;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly catalog: ChannelCatalog;
  readonly users: UserTable;
  readonly tokens: TokenService;
}

/** Settings, tables and token service of a simulator, with each simulator kind's defaults. */
export function simulatorBasics(
  kind: SimulatorKind,
  partial: Partial<SimulatorSettings>,
  deps: SimulatorBasicsDeps,
): SimulatorBasics {
  const settings = resolveSettings(kind, partial);
  const clock = deps.clock ?? systemClock;
  const catalog = deps.catalog ?? (kind === 'json' ? jsonChannelCatalog() : legacyChannelCatalog());
  const users =
    deps.users ??
    UserTable.fromJSON(kind === 'json' ? JSON_USERS : LEGACY_USERS, catalog, `built-in ${kind} users`);
  const tokens = new TokenService({
    users,
    mode: settings.tokenMode,
    ttlSeconds: settings.tokenTtlSeconds,
    secret: settings.jwtSecret,
    clock,
  });
  return { settings, logger: deps.logger ?? silentLogger(), clock, catalog, users, tokens };
}
