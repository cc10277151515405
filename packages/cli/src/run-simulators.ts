import type { AddressInfo } from 'node:net';
import {
  inProcessReplaySchedule,
  loadTables,
  recordingsForReplay,
  type ChannelCatalog,
  type Logger,
  type RecordedMessage,
  type SimulatorKind,
  type SimulatorSettings,
  type UserTable,
} from '@racedata/core';
import { type ConsoleAssets, type Simulator } from '@racedata/control';
import type { JsonSeeder } from '@racedata/json-sim';
import { playRequestFromSettings, RaceDay } from '@racedata/race-day/player';
import { startBanner } from './banner';
import { nextSteps, type Started } from './next-steps';
import type { CliContext } from './context';
import { bundledRecordingsDir } from './bundled-recordings';
import { docsRoot } from './docs-root';
import { seedStore } from './seed-store';
import { cliLogger } from './log-output';
import { productVersion } from './version';

export interface SimulatorPlan {
  kind: SimulatorKind;
  settings: SimulatorSettings;
  /** JSON simulator: --seed, an NDJSON file or a count of generated events. */
  seed?: string | undefined;
}

interface Running {
  kind: SimulatorKind;
  close(): Promise<void>;
}

interface Created {
  readonly sim: Simulator;
  /** The recordings the replay sends from the start; empty with replay off. */
  readonly replayed: readonly RecordedMessage[];
}

/**
 * With replay on, the recordings are loaded (and checked) before anything listens. With replay
 * off they only feed the console's samples and a replay started later, so they are loaded when
 * one of those first asks: reading and parsing them would otherwise compete with the first
 * requests of every start.
 */
function onDemandRecordings<M>(load: () => Promise<M[] | undefined>): {
  recordings: M[];
  loadRecordings: () => Promise<void>;
} {
  const recordings: M[] = [];
  let loading: Promise<void> | undefined;
  const loadRecordings = () =>
    (loading ??= load()
      .then((loaded) => {
        if (loaded) recordings.push(...loaded);
      })
      .catch(() => undefined));
  return { recordings, loadRecordings };
}

/*
 * Each simulator's package is loaded when that simulator starts, so a `json` start never
 * evaluates the legacy simulator's code (its STOMP endpoint, queues and documents), nor a
 * `legacy` start the JSON simulator's.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const jsonSim = () => require('@racedata/json-sim') as typeof import('@racedata/json-sim');
const legacySim = () => require('@racedata/legacy-sim') as typeof import('@racedata/legacy-sim');
// The console's script and stylesheet (about 60 KB of strings) load with the first request
// for them at /_sim/ui, not at every start.
const consoleBuild = () => require('@racedata/console') as typeof import('@racedata/console');
/* eslint-enable @typescript-eslint/no-require-imports */
const consoleAssets: ConsoleAssets = {
  get js() {
    return consoleBuild().consoleAssets.js;
  },
  get css() {
    return consoleBuild().consoleAssets.css;
  },
};

async function create(
  plan: SimulatorPlan,
  tables: { logger: Logger; users: UserTable; catalog: ChannelCatalog },
  raceDay: RaceDay,
): Promise<Created> {
  const dir = bundledRecordingsDir();
  // The QA console at /_sim/ui, built into the CLI (and into the single-file bundle).
  // The docs pages its panels link, read from disk on the first request to /_sim/docs/.
  const docs = docsRoot();
  const deps = {
    ...tables,
    consoleAssets,
    ...(docs !== undefined && { docsRoot: docs }),
    version: productVersion(),
    raceDay,
  };
  const replayOn = inProcessReplaySchedule(plan.settings) !== undefined;
  if (plan.kind === 'json') {
    const load = () => recordingsForReplay('json', plan.settings, deps.catalog, deps.logger, dir);
    const later = replayOn ? undefined : onDemandRecordings(load);
    const recordings = later ? later.recordings : await load();
    let seeder: JsonSeeder | undefined;
    const sim = jsonSim().createJsonSimulator(plan.settings, {
      ...deps,
      ...(recordings && { recordings }),
      ...(later && { loadRecordings: later.loadRecordings }),
      seeder: (s) => (seeder = s),
    });
    if (plan.seed !== undefined && seeder) {
      try {
        await seedStore(seeder, plan.seed, deps.logger);
      } catch (err) {
        await sim.close();
        throw err;
      }
    }
    return { sim, replayed: replayOn ? (recordings ?? []) : [] };
  }
  const load = () => recordingsForReplay('legacy', plan.settings, deps.catalog, deps.logger, dir);
  const later = replayOn ? undefined : onDemandRecordings(load);
  const recordings = later ? later.recordings : await load();
  const sim = legacySim().createLegacySimulator(plan.settings, {
    ...deps,
    ...(recordings && { recordings }),
    ...(later && { loadRecordings: later.loadRecordings }),
  });
  return { sim, replayed: replayOn ? (recordings ?? []) : [] };
}

/**
 * Starts the planned simulators, prints where they listen and with which users, and closes
 * them on SIGTERM/SIGINT. Tables are loaded for every plan before anything listens, so a
 * broken file stops the start without a half-started process.
 */
export async function runSimulators(ctx: CliContext, plans: readonly SimulatorPlan[]): Promise<void> {
  const first = plans[0]?.settings;
  const root = cliLogger(ctx, { level: first?.logLevel ?? 'info', format: first?.logFormat ?? 'auto' });
  const prepared = plans.map((plan) => ({
    plan,
    tables: loadTables(
      plan.kind === 'json' ? jsonSim().JSON_DESCRIPTION : legacySim().LEGACY_DESCRIPTION,
      plan.settings,
    ),
  }));
  const running: Running[] = [];
  let stopping = false;

  ctx.onShutdownSignal((signal) => {
    if (stopping) return;
    stopping = true;
    root.info({ signal }, 'shutting down');
    void Promise.all(running.map((sim) => sim.close())).then(
      () => ctx.exit(0),
      (err: unknown) => {
        root.error({ err }, 'error while shutting down');
        ctx.exit(1);
      },
    );
  });

  // One day for every simulator of the process, generated (and checked) before anything listens.
  const raceDay = new RaceDay();
  if (first) {
    const request = playRequestFromSettings(first, Date.now());
    if (request) raceDay.start(request, Date.now());
  }
  // Everything that can fail on bad input (files, recordings, the seed) happens before anything listens.
  const created: Array<{ plan: SimulatorPlan; tables: (typeof prepared)[number]['tables'] } & Created> = [];
  for (const { plan, tables } of prepared) {
    const made = await create(plan, { logger: root.child({ sim: plan.kind }), ...tables }, raceDay);
    created.push({ plan, tables, ...made });
  }
  const print = (text: string) => (ctx.print ? ctx.print(text) : ctx.stdout.write(text));
  const started: Started[] = [];
  for (const { plan, tables, sim, ...rest } of created) {
    running.push({ kind: plan.kind, close: () => sim.close() });
    let address: AddressInfo;
    try {
      address = await sim.listen(plan.settings.port, plan.settings.host);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      ctx.stderr.write(
        `racedata-sim: cannot listen on ${plan.settings.host}:${plan.settings.port} (${code ?? (err as Error).message})\n`,
      );
      await Promise.all(running.map((r) => r.close()));
      ctx.exit(1);
      return;
    }
    ctx.started?.(plan.kind);
    print(startBanner(plan.kind, address, tables.users, tables.catalog));
    started.push({ kind: plan.kind, address, settings: plan.settings, ...tables, replayed: rest.replayed });
  }
  print(nextSteps(started, new Date(), raceDay.current));
}
