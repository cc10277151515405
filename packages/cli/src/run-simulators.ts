import type { AddressInfo } from 'node:net';
import {
  createLogger,
  loadTables,
  recordingsForReplay,
  type ChannelCatalog,
  type Logger,
  type Simulator,
  type SimulatorKind,
  type SimulatorSettings,
  type UserTable,
} from '@racedata/core';
import { consoleAssets } from '@racedata/console';
import { createJsonSimulator, type JsonSeeder } from '@racedata/json-sim';
import { createLegacySimulator } from '@racedata/legacy-sim';
import { startBanner } from './banner';
import { nextSteps, type Started } from './next-steps';
import type { CliContext } from './context';
import { bundledRecordingsDir } from './bundled-recordings';
import { seedStore } from './seed-store';

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

async function create(
  plan: SimulatorPlan,
  tables: { logger: Logger; users: UserTable; catalog: ChannelCatalog },
): Promise<Simulator> {
  const dir = bundledRecordingsDir();
  // The QA console at /_sim/ui, built into the CLI (and into the single-file bundle).
  const deps = { ...tables, consoleAssets };
  if (plan.kind === 'json') {
    const recordings = await recordingsForReplay('json', plan.settings, deps.catalog, deps.logger, dir);
    let seeder: JsonSeeder | undefined;
    const sim = createJsonSimulator(plan.settings, {
      ...deps,
      ...(recordings && { recordings }),
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
    return sim;
  }
  const recordings = await recordingsForReplay('legacy', plan.settings, deps.catalog, deps.logger, dir);
  return createLegacySimulator(plan.settings, { ...deps, ...(recordings && { recordings }) });
}

/**
 * Starts the planned simulators, prints where they listen and with which users, and closes
 * them on SIGTERM/SIGINT. Tables are loaded for every plan before anything listens, so a
 * broken file stops the start without a half-started process.
 */
export async function runSimulators(ctx: CliContext, plans: readonly SimulatorPlan[]): Promise<void> {
  const level = plans[0]?.settings.logLevel ?? 'info';
  const root = createLogger({ level, destination: ctx.stdout });
  const prepared = plans.map((plan) => ({ plan, tables: loadTables(plan.kind, plan.settings) }));
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

  // Everything that can fail on bad input (files, recordings, the seed) happens before anything listens.
  const created: Array<{ plan: SimulatorPlan; tables: (typeof prepared)[number]['tables']; sim: Simulator }> =
    [];
  for (const { plan, tables } of prepared) {
    const sim = await create(plan, { logger: root.child({ sim: plan.kind }), ...tables });
    created.push({ plan, tables, sim });
  }
  const started: Started[] = [];
  for (const { plan, tables, sim } of created) {
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
    ctx.stdout.write(startBanner(plan.kind, address, tables.users, tables.catalog));
    started.push({ kind: plan.kind, address, settings: plan.settings, users: tables.users });
  }
  ctx.stdout.write(nextSteps(started));
}
