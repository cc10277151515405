import type { Express } from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import {
  UpgradeRouter,
  createHttpLifecycle,
  createInProcessReplay,
  simulatorBasics,
  type ChannelCatalog,
  type EventInput,
  type RecordedJsonMessage,
  type Replayer,
  type SimulatorBasicsDeps,
  type SimulatorSettings,
  type UserTable,
} from '@racedata/core';
import { ChannelBus, type PublishResult } from './channel-bus';
import { createJsonHttp } from './http/app';
import { EventStream } from './ws/event-stream';

export interface JsonSimulatorDeps extends SimulatorBasicsDeps {
  /** Replayed once the simulator listens, by AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY. */
  recordings?: readonly RecordedJsonMessage[];
}

export interface JsonSimulator {
  readonly app: Express;
  readonly server: Server;
  readonly settings: SimulatorSettings;
  readonly catalog: ChannelCatalog;
  readonly users: UserTable;
  readonly bus: ChannelBus;
  readonly stream: EventStream;
  /** The in-process replay, when AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY and recordings are given. */
  readonly replay: Replayer | undefined;
  /** The path every injected or replayed message takes. */
  publish(input: EventInput): PublishResult;
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Answers held polls (204), closes WebSockets, stops timers; resolves when all is closed. */
  close(): Promise<void>;
  /** Runs on close(), before the server stops (replay timers and the like). */
  onClose(task: () => void | Promise<void>): void;
}

export const EVENT_STREAM_PATH = '/customerapi/event-stream';

export function createJsonSimulator(
  settingsInput: Partial<SimulatorSettings> = {},
  deps: JsonSimulatorDeps = {},
): JsonSimulator {
  const { settings, logger, clock, catalog, users, tokens } = simulatorBasics('json', settingsInput, deps);
  const stream = new EventStream({ tokens, clock, logger, settings });
  const bus = new ChannelBus({
    catalog,
    clock,
    maxEvents: settings.eventStoreMax,
    maxBytes: settings.eventStoreMaxBytes,
    transient: stream,
  });
  const { app, handler } = createJsonHttp({ bus, users, tokens, clock, logger, settings });
  const replay = createInProcessReplay({
    settings,
    recordings: deps.recordings ?? [],
    clock,
    logger,
    deliver: (recorded) => {
      bus.publish(recorded.message);
    },
  });
  const closeTasks: Array<() => void | Promise<void>> = [];
  if (replay) closeTasks.push(() => replay.stop());
  const lifecycle = createHttpLifecycle({
    handler,
    limits: settings,
    upgrades: new UpgradeRouter().add(EVENT_STREAM_PATH, stream.handleUpgrade),
    beforeClose: async () => {
      for (const task of closeTasks) await task();
      bus.close();
      await stream.close();
    },
  });

  return {
    app,
    server: lifecycle.server,
    settings,
    catalog,
    users,
    bus,
    stream,
    replay,
    publish: (input) => bus.publish(input),
    listen: async (port = settings.port, host = settings.host) => {
      const address = await lifecycle.listen(port, host);
      replay?.start();
      return address;
    },
    close: () => lifecycle.close(),
    onClose: (task) => {
      closeTasks.push(task);
    },
  };
}
