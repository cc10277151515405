import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import {
  createHttpLifecycle,
  createInProcessReplay,
  simulatorBasics,
  TransientHub,
  UpgradeRouter,
  type ChannelCatalog,
  type RecordedLegacyMessage,
  type Replayer,
  type SimulatorBasicsDeps,
  type SimulatorSettings,
  type TokenService,
  type UserTable,
} from '@racedata/core';
import { createLegacyApp } from './app';
import { LegacyQueues } from './queue/legacy-queues';
import {
  LegacyBus,
  type LegacyPublishInput,
  type LegacyPublishResult,
  type TransientXmlMessage,
} from './legacy-bus';
import { StompEndpoint } from './stomp/stomp-endpoint';
import { DEFAULT_STOMP_OPTIONS, STOMP_PATHS, type StompOptions } from './stomp/stomp-options';

export interface LegacySimulatorDeps extends SimulatorBasicsDeps {
  /**
   * STOMP tuning beyond the shared settings (heart-beat offer, frame limits). By default
   * connectTimeoutMs is the WebSocket token deadline (wsAuthTimeoutMs), maxBufferedBytes is
   * wsMaxBufferedBytes, and the frame, subscription and session limits come from settings.
   */
  stomp?: Partial<StompOptions>;
  /** Replayed once the simulator listens, by AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY. */
  recordings?: readonly RecordedLegacyMessage[];
}

export interface LegacySimulator {
  readonly app: Express;
  readonly server: Server;
  readonly settings: SimulatorSettings;
  readonly users: UserTable;
  readonly catalog: ChannelCatalog;
  readonly tokens: TokenService;
  readonly queues: LegacyQueues;
  readonly hub: TransientHub<TransientXmlMessage>;
  readonly stomp: StompEndpoint;
  /** The in-process replay, when AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY and recordings are given. */
  readonly replay: Replayer | undefined;
  /** What the injection endpoints do, for in-process callers such as replay. */
  publish(input: LegacyPublishInput): LegacyPublishResult;
  /** Defaults to the configured port and host. */
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Answers held polls (204), closes STOMP sockets (1001), then the server; idempotent. */
  close(): Promise<void>;
}

export function createLegacySimulator(
  partial: Partial<SimulatorSettings> = {},
  deps: LegacySimulatorDeps = {},
): LegacySimulator {
  const { settings, logger, clock, catalog, users, tokens } = simulatorBasics('legacy', partial, deps);
  const queues = new LegacyQueues({
    clock,
    retentionMs: settings.legacyQueueRetentionMs,
    maxPerUser: settings.legacyQueueMax,
    maxBytes: settings.legacyQueueMaxBytes,
    logger,
  });
  const hub = new TransientHub<TransientXmlMessage>(logger);
  const bus = new LegacyBus({ users, catalog, queues, hub, clock, logger });
  const stompOptions: StompOptions = {
    ...DEFAULT_STOMP_OPTIONS,
    connectTimeoutMs: settings.wsAuthTimeoutMs,
    maxBufferedBytes: settings.wsMaxBufferedBytes,
    limits: { ...DEFAULT_STOMP_OPTIONS.limits, maxFrameBytes: settings.stompMaxFrameBytes },
    maxSubscriptions: settings.stompMaxSubscriptions,
    maxSessionsPerUser: settings.wsMaxSessionsPerUser,
    ...deps.stomp,
  };
  const stomp = new StompEndpoint({ tokens, hub, clock, logger, options: stompOptions });
  const upgrades = new UpgradeRouter();
  for (const path of STOMP_PATHS) upgrades.add(path, stomp.handleUpgrade);
  const app = createLegacyApp({
    users,
    tokens,
    queues,
    bus,
    logger,
    longPollTimeoutMs: settings.longPollTimeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
  });
  const replay = createInProcessReplay({
    settings,
    recordings: deps.recordings ?? [],
    clock,
    logger,
    deliver: (recorded) => {
      bus.publish(recorded);
    },
  });
  const lifecycle = createHttpLifecycle({
    handler: app,
    upgrades,
    limits: settings,
    beforeClose: async () => {
      await replay?.stop();
      queues.close();
      await stomp.close();
    },
  });

  return {
    app,
    server: lifecycle.server,
    settings,
    users,
    catalog,
    tokens,
    queues,
    hub,
    stomp,
    replay,
    publish: (input) => bus.publish(input),
    listen: async (port = settings.port, host = settings.host) => {
      const address = await lifecycle.listen(port, host);
      replay?.start();
      return address;
    },
    close: () => lifecycle.close(),
  };
}
