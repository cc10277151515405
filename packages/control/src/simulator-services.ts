import {
  builtInCatalog,
  builtInUsers,
  type ChannelCatalog,
  type Clock,
  type Logger,
  resolveSettings,
  sessionLog,
  type SessionLog,
  silentLogger,
  type SimulatorDescription,
  type SimulatorKind,
  type SimulatorSettings,
  systemClock,
  TokenService,
  type UserTable,
} from '@racedata/core';
import { playRequestFromSettings, RaceDay } from '@racedata/race-day/player';
import type { CertificationSource } from './certification-source';
import type { ConsoleAssets } from './console-assets';
import { FaultRoutes } from './fault-routes';
import { Faults } from './faults';
import { Journal } from './journal';
import { OffsetClock } from './offset-clock';

/** What an embedder or test may hand a simulator factory instead of the built-in defaults. */
export interface SimulatorServicesDeps {
  logger?: Logger;
  clock?: Clock;
  catalog?: ChannelCatalog;
  users?: UserTable;
  /** The built QA console served at /_sim/ui (the CLI passes it; without it the page is 404). */
  consoleAssets?: ConsoleAssets;
  /**
   * The folder holding the repository's README.md, CHANGELOG.md and docs/, served read-only at
   * /_sim/docs/ for the console's links (the CLI passes it; without it those pages are 404).
   */
  docsRoot?: string;
  /** The product's version, reported by GET /health (the CLI passes the package's). */
  version?: string;
  /**
   * The certification this simulator serves (racedata-sim certify): GET /_sim/certification and
   * the console show it. Absent on every other simulator.
   */
  certification?: CertificationSource;
  /**
   * The race day to play, shared with another simulator of the process (`racedata-sim all`):
   * its caller starts it. Without one, the simulator makes its own and starts it when RACE_DAY is set.
   */
  raceDay?: RaceDay;
}

/** GET /health: liveness, which simulator, which build, and how long it has been up. */
export interface HealthBody {
  readonly status: 'ok';
  readonly simulator: SimulatorKind;
  /** `unknown` when the embedder passed none. */
  readonly version: string;
  readonly startedAt: string;
  readonly uptimeMs: number;
}

/**
 * What every simulator is built on, made once per simulator: its description and settings, and
 * the services both its own routes and the control plane use. assembleSimulator() takes it whole.
 */
export interface SimulatorServices {
  readonly description: SimulatorDescription;
  readonly settings: SimulatorSettings;
  readonly logger: Logger;
  /** The injected clock behind an offset POST /_sim/clock/advance moves; everything uses this one. */
  readonly clock: OffsetClock;
  readonly catalog: ChannelCatalog;
  readonly users: UserTable;
  readonly tokens: TokenService;
  /** The control plane's delivery journal; records nothing with CONTROL_API=off. */
  readonly journal: Journal;
  /** The control plane's fault rules and the live sessions they (and connections/close) act on. */
  readonly faults: Faults;
  /** LOG_REQUESTS' session lines; undefined when it is off. */
  readonly sessions: SessionLog | undefined;
  /** The body of GET /health, made when asked. */
  health(): HealthBody;
  /** The clock as injected, without the offset: sandboxes idle out on real time. */
  readonly realClock: Clock;
  /** The built QA console served at /_sim/ui; absent, the page is 404. */
  readonly consoleAssets: ConsoleAssets | undefined;
  /** Where the docs pages served at /_sim/docs/ are read from; absent, they are 404. */
  readonly docsRoot: string | undefined;
  /** The certification this simulator serves; undefined on every other simulator. */
  readonly certification: CertificationSource | undefined;
  /** The race day the simulator plays (idle until started by RACE_DAY or POST /_sim/race-day). */
  readonly raceDay: RaceDay;
}

/** A simulator's services, with the defaults its description declares unless deps replace them. */
export function simulatorServices(
  description: SimulatorDescription,
  partial: Partial<SimulatorSettings>,
  deps: SimulatorServicesDeps,
): SimulatorServices {
  const { kind } = description;
  const settings = resolveSettings(kind, partial);
  const clock = new OffsetClock(deps.clock ?? systemClock);
  const catalog = deps.catalog ?? builtInCatalog(description);
  const users = deps.users ?? builtInUsers(description, catalog);
  const tokens = new TokenService({
    users,
    mode: settings.tokenMode,
    ttlSeconds: settings.tokenTtlSeconds,
    secret: settings.jwtSecret,
    clock,
  });
  const journal = new Journal(
    clock,
    settings.controlApi === 'off' ? 0 : settings.journalMax,
    undefined,
    settings.journalWaitersMax,
  );
  const faults = new Faults(clock, tokens, new FaultRoutes(description));
  const logger = deps.logger ?? silentLogger();
  // Uptime runs on the injected clock, not the offset one: /_sim/clock/advance moves the
  // simulator's "now", not how long the process has served.
  const real = deps.clock ?? systemClock;
  const startedAt = real.now();
  const version = deps.version ?? 'unknown';
  const health = (): HealthBody => ({
    status: 'ok',
    simulator: kind,
    version,
    startedAt: new Date(startedAt).toISOString(),
    uptimeMs: Math.max(0, real.now() - startedAt),
  });
  const sessions = sessionLog(logger, settings.logRequests);
  let raceDay = deps.raceDay;
  if (!raceDay) {
    raceDay = new RaceDay();
    // A bad RACE_DAY_* value throws here (RACE_DAY_INVALID), before the simulator exists.
    const request = playRequestFromSettings(settings, clock.now());
    if (request) raceDay.start(request, clock.now());
  }
  return {
    description,
    settings,
    logger,
    clock,
    catalog,
    users,
    tokens,
    journal,
    faults,
    sessions,
    health,
    realClock: real,
    consoleAssets: deps.consoleAssets,
    docsRoot: deps.docsRoot,
    certification: deps.certification,
    raceDay,
  };
}
