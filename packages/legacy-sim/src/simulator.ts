import {
  docsOnDemand,
  type RecordedLegacyMessage,
  ReplayControl,
  type SimulatorSettings,
  TransientHub,
  UpgradeRouter,
} from '@racedata/core';
import {
  assembleSimulator,
  type Simulator,
  simulatorServices,
  type SimulatorServicesDeps,
} from '@racedata/control';
import { legacyControlHooks } from './control-hooks';
import { LEGACY_DESCRIPTION } from './description';
import { createLegacyHttp } from './http/app';
import { LegacyQueues } from './queue/legacy-queues';
import { LegacyBus, type TransientXmlMessage } from './legacy-bus';
import type { LegacySimulatorProbe } from './probe';
import { StompEndpoint } from './stomp/stomp-endpoint';
import { legacyRaceDaySink } from './race-day-sink';
import type { YieldTurn } from './xml/well-formed';
import { DEFAULT_STOMP_OPTIONS, STOMP_PATHS, type StompOptions } from './stomp/stomp-options';

// The documents' modules load with the first GET of a document (docsOnDemand), not at start.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const legacyDocs = () => require('./docs/legacy-docs') as typeof import('./docs/legacy-docs');

export interface LegacySimulatorDeps extends SimulatorServicesDeps {
  /**
   * STOMP tuning beyond the shared settings (heart-beat offer, frame limits). By default
   * connectTimeoutMs is the WebSocket token deadline (wsAuthTimeoutMs), maxBufferedBytes is
   * wsMaxBufferedBytes, and the frame, subscription and session limits come from settings.
   */
  stomp?: Partial<StompOptions>;
  /** Replayed once the simulator listens, by AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY. */
  recordings?: readonly RecordedLegacyMessage[];
  /**
   * Fills `recordings` when first needed (the console's catalog, the replay control), for a
   * caller that leaves them out of the start (the CLI does with replay off, so reading and
   * parsing them never delays the first answer). Called more than once; settles when filled.
   */
  loadRecordings?: () => Promise<unknown>;
  /** Tests and the benchmark only: receives in-process access to the simulator once built. */
  probe?: (probe: LegacySimulatorProbe) => void;
  /**
   * How an injection's well-formedness check hands the event loop on between slices of a large
   * document (the next turn by default); a test holds it to see other requests served meanwhile.
   */
  yieldTurn?: YieldTurn;
}

export function createLegacySimulator(
  partial: Partial<SimulatorSettings> = {},
  deps: LegacySimulatorDeps = {},
): Simulator {
  const services = simulatorServices(LEGACY_DESCRIPTION, partial, deps);
  const { settings, logger, clock, catalog, users, tokens, journal, faults, sessions, health } = services;
  const queues = new LegacyQueues({
    clock,
    retentionMs: settings.legacyQueueRetentionMs,
    maxPerUser: settings.legacyQueueMax,
    maxBytes: settings.legacyQueueMaxBytes,
    logger,
  });
  const hub = new TransientHub<TransientXmlMessage>(
    logger,
    (recipients, _target, message) => {
      journal.deliveredEach(
        recipients.map((user) => user.key),
        {
          transport: 'stomp',
          channel: message.channel,
          ...(message.payloadKey !== null && { payloadKey: message.payloadKey }),
          status: 101,
        },
      );
    },
    (user, _target, message) => faults.drops(user.key, 'stomp', message.channel),
  );
  const bus = new LegacyBus({
    users,
    catalog,
    queues,
    hub,
    clock,
    logger,
    journal,
    yieldTurn: deps.yieldTurn,
  });
  const stompOptions: StompOptions = {
    ...DEFAULT_STOMP_OPTIONS,
    connectTimeoutMs: settings.wsAuthTimeoutMs,
    maxBufferedBytes: settings.wsMaxBufferedBytes,
    limits: { ...DEFAULT_STOMP_OPTIONS.limits, maxFrameBytes: settings.stompMaxFrameBytes },
    maxSubscriptions: settings.stompMaxSubscriptions,
    maxSessionsPerUser: settings.wsMaxSessionsPerUser,
    ...deps.stomp,
  };
  const stomp = new StompEndpoint({
    tokens,
    hub,
    clock,
    logger,
    options: stompOptions,
    faults,
    journal,
    sessions,
  });
  const upgrades = new UpgradeRouter();
  for (const path of STOMP_PATHS) upgrades.add(path, stomp.handleUpgrade);
  const { app, handler } = createLegacyHttp({
    users,
    tokens,
    queues,
    bus,
    logger,
    longPollTimeoutMs: settings.longPollTimeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    journal,
    health,
  });
  const replay = new ReplayControl<RecordedLegacyMessage>({
    settings,
    recordings: deps.recordings ?? [],
    clock,
    logger,
    deliver: (recorded) => {
      bus.publish(recorded, 'replay');
    },
  });
  const simulator = assembleSimulator(services, {
    http: { app, handler, upgrades },
    replay: { handle: replay, recordings: deps.recordings ?? [], load: deps.loadRecordings },
    raceDay: { sink: legacyRaceDaySink(bus, catalog, logger) },
    control: {
      hooks: legacyControlHooks({ queues, stomp, users, replay }),
      docs: docsOnDemand(() =>
        legacyDocs().legacySimulatorDocs({
          kind: 'legacy',
          description: LEGACY_DESCRIPTION,
          catalog,
          users,
          settings,
        }),
      ),
      dropped: () => queues.droppedCount,
    },
    sandboxFactory: (sandboxSettings, sandboxUsers) =>
      createLegacySimulator(sandboxSettings, {
        ...deps,
        users: sandboxUsers,
        probe: undefined,
        certification: undefined,
        // A sandbox plays its own day, if any, never the parent's.
        raceDay: undefined,
      }).mount(),
    shutdown: async () => {
      queues.close();
      await stomp.close();
    },
  });

  deps.probe?.({
    publish: (input) => bus.publish(input),
    queues,
    hub,
    get stompSessions() {
      return stomp.size;
    },
    get replay() {
      return replay.current;
    },
  });

  return simulator;
}
