import type { RequestListener } from 'node:http';
import {
  createHttpLifecycle,
  type ReplayHandle,
  sessionTransports,
  transportPaths,
  withRequestLog,
} from '@racedata/core';
import { withConsole } from './console-routes';
import { withControlGuard } from './control-guard';
import { withControlPlane } from './control-plane';
import { createSimulatorMetrics, type MetricsOptions } from './metrics';
import { Sandboxes } from './sandboxes';
import type { SimulatorServices } from './simulator-services';
import type { Simulator, SimulatorParts } from './simulator-types';
import type { ReplayState } from './wire';
import { DayPlayer } from '@racedata/race-day/player';

/** The replay part of GET /_sim/state. */
export function replayState(replay: ReplayHandle): ReplayState {
  const { on, mode, position, total, loops, sent } = replay.view();
  return { on, mode, position, total, loops, sent };
}

/**
 * The part of a factory both simulators share: one HTTP lifecycle, replay started on listen and
 * stopped on close, and the tasks callers add with onClose() run before the simulator's own.
 */
export function assembleSimulator(services: SimulatorServices, parts: SimulatorParts): Simulator {
  const { description, settings, faults, journal, logger, tokens } = services;
  const { app, upgrades } = parts.http;
  const closeTasks: Array<() => void | Promise<void>> = [];
  const replay = parts.replay.handle;
  closeTasks.push(() => replay.stop());
  // Plays the day at once when one is playing: history is there before the first request.
  const player =
    parts.raceDay &&
    new DayPlayer({ day: services.raceDay, clock: services.clock, sink: parts.raceDay.sink, logger });
  if (player) closeTasks.push(() => player.close());
  const sandboxes =
    parts.sandboxFactory && settings.sandboxMax > 0 && settings.controlApi !== 'off'
      ? new Sandboxes({
          settings,
          users: services.users,
          factory: parts.sandboxFactory,
          clock: services.realClock,
          logger,
        })
      : undefined;
  const control = {
    ...services,
    ...parts.control,
    kind: description.kind,
    sandboxes,
    replay,
    raceDay: player && { day: services.raceDay, player },
  };
  const metrics: MetricsOptions = {
    dropped: parts.control.dropped,
    routes: ['/health', ...transportPaths(description)],
    // connected_sessions sums every open session under one label, the first session transport's.
    sessionTransport: sessionTransports(description)[0] ?? '',
  };
  const inner = parts.http.handler ?? app;
  // Fault rules stand between the control plane and the simulator: /_sim/* is never faulted.
  const gated: RequestListener = (req, res) => faults.gateRequest(req, res, () => inner(req, res));
  upgrades.gate((req, socket, proceed) => faults.gateUpgrade(req, socket, proceed));
  const consoleRoutes =
    settings.controlApi === 'off'
      ? undefined
      : withConsole(withControlPlane(gated, control), {
          ...control,
          recordings: parts.replay.recordings,
          loadRecordings: parts.replay.load,
          consoleAssets: services.consoleAssets,
          docsRoot: services.docsRoot,
        });
  const controlled = withControlGuard(consoleRoutes?.handle ?? withControlPlane(gated, control), settings);
  const measured =
    settings.controlApi === 'off'
      ? controlled
      : createSimulatorMetrics({ ...control, options: metrics }).wrap(controlled);
  // Outside the metrics, so a /metrics scrape is logged too; a sandbox logs its own requests.
  const logged = settings.logRequests ? withRequestLog(measured, { logger, tokens }) : measured;
  const handler = sandboxes ? sandboxes.withSandboxes(logged) : logged;
  if (sandboxes) upgrades.mount(sandboxes.handleUpgrade);
  const lifecycle = createHttpLifecycle({
    handler,
    upgrades,
    limits: settings,
    beforeClose: async () => {
      consoleRoutes?.stream.close();
      await sandboxes?.closeAll();
      for (const task of closeTasks) await task();
      journal.close();
      // Held and delayed requests go on to the simulator, which answers them as it shuts down.
      faults.close();
      await parts.shutdown();
    },
  });
  return {
    app,
    server: lifecycle.server,
    listen: async (port = settings.port, host = settings.host) => {
      const address = await lifecycle.listen(port, host);
      replay.autostart();
      return address;
    },
    close: () => lifecycle.close(),
    onClose: (task) => {
      closeTasks.push(task);
    },
    mount: () => {
      replay.autostart();
      return { handle: handler, handleUpgrade: upgrades.handle, close: () => lifecycle.close() };
    },
  };
}
