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
import type { Simulator, SimulatorParts } from './simulator-types';
import type { ReplayState } from './wire';

/** The replay part of GET /_sim/state. */
export function replayState(replay: ReplayHandle): ReplayState {
  const { on, mode, position, total, loops, sent } = replay.view();
  return { on, mode, position, total, loops, sent };
}

/**
 * The part of a factory both simulators share: one HTTP lifecycle, replay started on listen and
 * stopped on close, and the tasks callers add with onClose() run before the simulator's own.
 */
export function assembleSimulator(parts: SimulatorParts): Simulator {
  const closeTasks: Array<() => void | Promise<void>> = [];
  const replay = parts.replay;
  closeTasks.push(() => replay.stop());
  const sandboxes =
    parts.sandboxes && parts.settings.sandboxMax > 0 && parts.settings.controlApi !== 'off'
      ? new Sandboxes({
          settings: parts.settings,
          users: parts.control.users,
          factory: parts.sandboxes.factory,
          clock: parts.sandboxes.clock,
          logger: parts.control.logger,
        })
      : undefined;
  const { description } = parts.control;
  const control = { ...parts.control, kind: description.kind, settings: parts.settings, sandboxes, replay };
  const metrics: MetricsOptions = {
    ...parts.metrics,
    routes: ['/health', ...transportPaths(description)],
    // connected_sessions sums every open session under one label, the first session transport's.
    sessionTransport: sessionTransports(description)[0] ?? '',
  };
  const { faults } = parts.control;
  const inner = parts.handler ?? parts.app;
  // Fault rules stand between the control plane and the simulator: /_sim/* is never faulted.
  const gated: RequestListener = (req, res) => faults.gateRequest(req, res, () => inner(req, res));
  parts.upgrades.gate((req, socket, proceed) => faults.gateUpgrade(req, socket, proceed));
  const consoleRoutes =
    parts.settings.controlApi === 'off'
      ? undefined
      : withConsole(withControlPlane(gated, control), {
          ...control,
          recordings: parts.recordings,
          loadRecordings: parts.loadRecordings,
          consoleAssets: parts.consoleAssets,
        });
  const controlled = withControlGuard(
    consoleRoutes?.handle ?? withControlPlane(gated, control),
    parts.settings,
  );
  const measured =
    parts.settings.controlApi === 'off'
      ? controlled
      : createSimulatorMetrics({ ...control, options: metrics }).wrap(controlled);
  // Outside the metrics, so a /metrics scrape is logged too; a sandbox logs its own requests.
  const logged = parts.settings.logRequests
    ? withRequestLog(measured, { logger: parts.control.logger, tokens: parts.control.tokens })
    : measured;
  const handler = sandboxes ? sandboxes.withSandboxes(logged) : logged;
  if (sandboxes) parts.upgrades.mount(sandboxes.handleUpgrade);
  const lifecycle = createHttpLifecycle({
    handler,
    upgrades: parts.upgrades,
    limits: parts.settings,
    beforeClose: async () => {
      consoleRoutes?.stream.close();
      await sandboxes?.closeAll();
      for (const task of closeTasks) await task();
      parts.control.journal.close();
      // Held and delayed requests go on to the simulator, which answers them as it shuts down.
      faults.close();
      await parts.shutdown();
    },
  });
  return {
    app: parts.app,
    server: lifecycle.server,
    listen: async (port = parts.settings.port, host = parts.settings.host) => {
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
      return { handle: handler, handleUpgrade: parts.upgrades.handle, close: () => lifecycle.close() };
    },
  };
}
