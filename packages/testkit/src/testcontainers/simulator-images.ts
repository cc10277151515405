import { JsonControlClient } from '../json-control-client';
import { LegacyControlClient } from '../legacy-control-client';
import { RACEDATA_SIM_VERSION } from '../version';
import { RaceDataSimulatorContainer, type StartedParts } from './simulator-container';
import type { SimulatorUser } from '../control-types';
import { baseUrlOf, StartedRaceDataSimulatorContainer } from './started-simulator-container';

/** The images docker/json.Dockerfile and docker/legacy.Dockerfile build, tagged with this version. */
export const SIMULATOR_IMAGES = {
  json: `racedata/json-sim:${RACEDATA_SIM_VERSION}`,
  legacy: `racedata/legacy-sim:${RACEDATA_SIM_VERSION}`,
} as const;

/** The users as the running simulator lists them; unknown with CONTROL_API=off. */
async function usersOf(parts: StartedParts, control: JsonControlClient | LegacyControlClient) {
  return parts.controlApi ? await control.users() : undefined;
}

/**
 * The JSON simulator (port 3000) as a Testcontainers module.
 *
 * ```ts
 * const sim = await new JsonSimulatorContainer().withControlToken('secret').start();
 * await sim.control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: {} });
 * ```
 */
export class JsonSimulatorContainer extends RaceDataSimulatorContainer {
  constructor(image: string = SIMULATOR_IMAGES.json) {
    super(image, 'json');
  }

  override async start(): Promise<StartedJsonSimulatorContainer> {
    const parts = await this.startSimulator();
    const control = new JsonControlClient(baseUrlOf(parts), parts.clientOptions);
    return new StartedJsonSimulatorContainer(parts, control, await usersOf(parts, control));
  }
}

export class StartedJsonSimulatorContainer extends StartedRaceDataSimulatorContainer<JsonControlClient> {
  constructor(parts: StartedParts, control: JsonControlClient, users: readonly SimulatorUser[] | undefined) {
    super(parts, control, users);
  }

  /** The event stream: `ws://<host>:<mapped port>/customerapi/event-stream`. */
  getWsUrl(): string {
    return this.control.eventStreamUrl;
  }
}

/**
 * The legacy simulator (port 8080) as a Testcontainers module.
 *
 * ```ts
 * const sim = await new LegacySimulatorContainer().start();
 * await sim.control.inject('<race id="1"/>');
 * ```
 */
export class LegacySimulatorContainer extends RaceDataSimulatorContainer {
  constructor(image: string = SIMULATOR_IMAGES.legacy) {
    super(image, 'legacy');
  }

  override async start(): Promise<StartedLegacySimulatorContainer> {
    const parts = await this.startSimulator();
    const control = new LegacyControlClient(baseUrlOf(parts), parts.clientOptions);
    return new StartedLegacySimulatorContainer(parts, control, await usersOf(parts, control));
  }
}

export class StartedLegacySimulatorContainer extends StartedRaceDataSimulatorContainer<LegacyControlClient> {
  constructor(
    parts: StartedParts,
    control: LegacyControlClient,
    users: readonly SimulatorUser[] | undefined,
  ) {
    super(parts, control, users);
  }

  /** The STOMP endpoint, a WebSocket: `ws://<host>:<mapped port>/api/v1/channels/connect`. */
  getStompUrl(): string {
    return this.control.stompUrl;
  }

  /** The same as getStompUrl(): the legacy simulator's one WebSocket endpoint. */
  getWsUrl(): string {
    return this.control.stompUrl;
  }
}
