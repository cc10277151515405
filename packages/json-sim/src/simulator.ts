import {
  docsOnDemand,
  UpgradeRouter,
  ReplayControl,
  type RecordedJsonMessage,
  type SimulatorSettings,
} from '@racedata/core';
import {
  assembleSimulator,
  simulatorServices,
  type Simulator,
  type SimulatorServicesDeps,
} from '@racedata/control';
import { ChannelBus } from './channel-bus';
import { createJsonHttp } from './http/app';
import type { JsonSimulatorProbe } from './probe';
import { EVENT_STREAM_PATH, EventStream } from './ws/event-stream';
import { jsonControlHooks } from './control-hooks';
import { JSON_DESCRIPTION } from './description';
import { jsonSeeder, type JsonSeeder } from './seed/seed-events';
import { jsonRaceDaySink } from './race-day-sink';

// The documents' modules load with the first GET of a document (docsOnDemand), not at start.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jsonDocs = () => require('./docs/json-docs') as typeof import('./docs/json-docs');

export interface JsonSimulatorDeps extends SimulatorServicesDeps {
  /** Replayed once the simulator listens, by AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY. */
  recordings?: readonly RecordedJsonMessage[];
  /**
   * Fills `recordings` when first needed (the console's catalog, the replay control), for a
   * caller that leaves them out of the start (the CLI does with replay off, so reading and
   * parsing them never delays the first answer). Called more than once; settles when filled.
   */
  loadRecordings?: () => Promise<unknown>;
  /** Receives the bulk seeder (the CLI's --seed), to fill the store before listening. */
  seeder?: (seeder: JsonSeeder) => void;
  /** Tests and the benchmark only: receives in-process access to the simulator once built. */
  probe?: (probe: JsonSimulatorProbe) => void;
}

export { EVENT_STREAM_PATH };

export function createJsonSimulator(
  settingsInput: Partial<SimulatorSettings> = {},
  deps: JsonSimulatorDeps = {},
): Simulator {
  const services = simulatorServices(JSON_DESCRIPTION, settingsInput, deps);
  const { settings, logger, clock, catalog, users, tokens, journal, faults, sessions, health } = services;
  const stream = new EventStream({ tokens, clock, logger, settings, journal, faults, sessions });
  const bus = new ChannelBus({
    catalog,
    clock,
    maxEvents: settings.eventStoreMax,
    maxBytes: settings.eventStoreMaxBytes,
    transient: stream,
    journal,
  });
  const presence = {
    get sessionsByUser() {
      return stream.sessionsByUser;
    },
    usersWaitingFor: (channel: string) => bus.polls.usersWaitingFor(channel),
  };
  const { app, handler } = createJsonHttp({ bus, users, tokens, clock, logger, settings, health, presence });
  const replay = new ReplayControl<RecordedJsonMessage>({
    settings,
    recordings: deps.recordings ?? [],
    clock,
    logger,
    deliver: (recorded) => {
      bus.publish(recorded.message, 'replay');
    },
  });
  const simulator = assembleSimulator(services, {
    http: { app, handler, upgrades: new UpgradeRouter().add(EVENT_STREAM_PATH, stream.handleUpgrade) },
    replay: { handle: replay, recordings: deps.recordings ?? [], load: deps.loadRecordings },
    raceDay: { sink: jsonRaceDaySink(bus, catalog, logger) },
    control: {
      hooks: jsonControlHooks({ bus, stream, users, replay, settings }),
      docs: docsOnDemand(() =>
        jsonDocs().jsonSimulatorDocs({
          kind: 'json',
          description: JSON_DESCRIPTION,
          catalog,
          users,
          settings,
        }),
      ),
      dropped: () => bus.store.dropped,
    },
    sandboxFactory: (sandboxSettings, sandboxUsers) =>
      createJsonSimulator(sandboxSettings, {
        ...deps,
        users: sandboxUsers,
        probe: undefined,
        // A certification is the simulator's own, not its sandboxes'.
        certification: undefined,
        seeder: undefined,
        // A sandbox plays its own day, if any, never the parent's.
        raceDay: undefined,
      }).mount(),
    shutdown: async () => {
      bus.close();
      await stream.close();
    },
  });
  deps.seeder?.(jsonSeeder(bus, () => clock.now()));
  deps.probe?.({
    publish: (input) => bus.publish(input),
    store: bus.store,
    polls: bus.polls,
    get streamSessions() {
      return stream.subscriberCount;
    },
    get replay() {
      return replay.current;
    },
  });

  return simulator;
}
