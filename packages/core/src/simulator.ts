import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConsoleAssets } from './control/console-assets';
import { withConsole } from './control/console-routes';
import { withControlGuard } from './control/control-guard';
import { withControlPlane, type ControlHooks, type ReplayState } from './control/control-plane';
import type { Faults } from './control/faults';
import { Sandboxes, type MountedSimulator, type SandboxFactory } from './control/sandboxes';
import type { Clock } from './clock';
import type { Journal } from './control/journal';
import { createSimulatorMetrics, type MetricsOptions } from './control/metrics';
import type { OffsetClock } from './control/offset-clock';
import type { SimulatorDocs } from './control/docs/docs-context';
import type { ChannelCatalog } from './channel-catalog';
import { sessionTransports, transportPaths, type SimulatorDescription } from './description';
import type { Logger } from './logger';
import type { ReplayHandle } from './replay/replay-control';
import type { RecordedMessage } from './replay/recording-types';
import { createHttpLifecycle } from './server/http-lifecycle';
import { withRequestLog } from './server/request-log';
import type { UpgradeRouter } from './server/upgrade-router';
import type { SimulatorSettings } from './settings';
import type { TokenService } from './tokens';
import type { UserTable } from './users';

/**
 * What each simulator factory returns, the same for both. The factory opens no port; a caller
 * learns everything else over HTTP and WebSocket, as a client would.
 */
export interface Simulator {
  /**
   * The HTTP surface as a request listener (an express app), e.g. for supertest; the /_sim/*
   * control plane is served by the server only.
   */
  readonly app: RequestListener;
  /** The server listen() starts; the WebSocket upgrades are routed on it. */
  readonly server: Server;
  /** Defaults to the configured port and host; starts the auto replay once listening. */
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Answers held polls (204), closes WebSockets, stops timers; resolves when nothing runs. */
  close(): Promise<void>;
  /** Runs on close(), before the server stops. */
  onClose(task: () => void | Promise<void>): void;
  /**
   * Serves the simulator from another server instead of listen(): its request and upgrade
   * handlers (control plane, faults and metrics included), and the replay started. Sandboxes
   * are served this way.
   */
  mount(): MountedSimulator;
}

export interface SimulatorParts {
  readonly app: RequestListener;
  readonly handler?: RequestListener;
  readonly settings: SimulatorSettings;
  readonly upgrades: UpgradeRouter;
  /** The simulator's own replay of its recordings, started once it listens when configured. */
  readonly replay: ReplayHandle;
  /** The recordings the simulator was given; the console's post forms take samples from them. */
  readonly recordings: readonly RecordedMessage[];
  /** Fills `recordings` when first needed, when the caller left them out of the start. */
  readonly loadRecordings?: (() => Promise<unknown>) | undefined;
  /** The built QA console, served at /_sim/ui. */
  readonly consoleAssets?: ConsoleAssets | undefined;
  /** The simulator's own shutdown (held polls, queues, sockets), after every onClose task. */
  readonly shutdown: () => void | Promise<void>;
  /** The /_sim/* control plane: the simulator's state and reset, over core's journal and clock. */
  readonly control: {
    /** What the simulator is: its kind and transports (fault routes, journal filters, documents). */
    readonly description: SimulatorDescription;
    readonly clock: OffsetClock;
    readonly journal: Journal;
    readonly faults: Faults;
    readonly users: UserTable;
    readonly catalog: ChannelCatalog;
    readonly tokens: TokenService;
    readonly logger: Logger;
    readonly hooks: ControlHooks;
    /** Its OpenAPI and AsyncAPI documents, served under /_sim/. */
    readonly docs: SimulatorDocs;
  };
  /** GET /metrics: what only the simulator knows (its routes and session transport come from its description). */
  readonly metrics: Pick<MetricsOptions, 'dropped'>;
  /** Builds this kind's sandboxes (POST /_sim/sandboxes); idle time runs on `clock`. */
  readonly sandboxes?: { readonly factory: SandboxFactory; readonly clock: Clock };
}

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
