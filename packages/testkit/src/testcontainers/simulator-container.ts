import { isIP } from 'node:net';
import {
  AbstractStartedContainer,
  GenericContainer,
  Wait,
  getContainerRuntimeClient,
  type StartedTestContainer,
} from 'testcontainers';
import type { SimulatorKind, SimulatorSettings } from '@racedata/core';
import { ControlClient, type ControlClientOptions } from '../control-client';
import { settingsToEnv } from '../settings-env';

/** The images docker/json.Dockerfile and docker/legacy.Dockerfile build. */
export const SIMULATOR_IMAGES: Readonly<Record<SimulatorKind, string>> = {
  json: 'racedata/json-sim',
  legacy: 'racedata/legacy-sim',
};

/** The port each image listens on (its PORT). */
export const SIMULATOR_PORTS: Readonly<Record<SimulatorKind, number>> = { json: 3000, legacy: 8080 };

/** Settings a container takes as environment; its port and address are the image's own. */
export type ContainerSettings = Omit<Partial<SimulatorSettings>, 'port' | 'host'>;

/**
 * A racedata-sim simulator for Testcontainers: the JSON (3000) or legacy (8080) image, started
 * once its /health answers, handing back its URL and a ControlClient for its control plane.
 *
 * ```ts
 * const sim = await new RaceDataSimulatorContainer('json').withControlToken('secret').start();
 * const res = await fetch(`${sim.url}/customerapi/events?lastEventId=0`, { headers: ... });
 * await sim.control.waitFor({ kind: 'delivered' });
 * await sim.stop();
 * ```
 */
export class RaceDataSimulatorContainer extends GenericContainer {
  private settings: ContainerSettings = {};
  private clientOptions: Omit<ControlClientOptions, 'token'> = {};

  /** `image` defaults to racedata/json-sim or racedata/legacy-sim; pass a tag or registry of your own. */
  constructor(
    readonly kind: SimulatorKind = 'json',
    image: string = SIMULATOR_IMAGES[kind],
  ) {
    super(image);
    const port = SIMULATOR_PORTS[kind];
    this.withExposedPorts(port)
      .withWaitStrategy(Wait.forHttp('/health', port).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /** CONTROL_TOKEN: /_sim/* then needs it, and the handed-back ControlClient sends it. */
  withControlToken(token: string): this {
    return this.withSettings({ controlToken: token });
  }

  /** Simulator settings, passed as their environment variables (LONG_POLL_TIMEOUT_MS=...). */
  withSettings(settings: ContainerSettings): this {
    this.settings = { ...this.settings, ...settings };
    return this;
  }

  /** Options of the ControlClient start() hands back (request timeout, fetch). */
  withControlClientOptions(options: Omit<ControlClientOptions, 'token'>): this {
    this.clientOptions = options;
    return this;
  }

  override async start(): Promise<StartedRaceDataSimulatorContainer> {
    // The URL names the container runtime's host, which is not always localhost or an IP (a
    // remote Docker host by name): /_sim/* must answer to it (CONTROL_ALLOWED_HOSTS).
    // An IP address is always taken, and the setting lists names only.
    const runtimeHost = (await getContainerRuntimeClient()).info.containerRuntime.host.toLowerCase();
    const allowed =
      this.settings.controlAllowedHosts ?? (isIP(runtimeHost) ? undefined : ['localhost', runtimeHost]);
    this.withEnvironment(settingsToEnv({ ...this.settings, controlAllowedHosts: allowed }));
    const token = this.settings.controlToken;
    return new StartedRaceDataSimulatorContainer(await super.start(), SIMULATOR_PORTS[this.kind], {
      ...this.clientOptions,
      ...(token !== undefined && { token }),
    });
  }
}

/** A running simulator container: its base URL on the host and a ControlClient bound to it. */
export class StartedRaceDataSimulatorContainer extends AbstractStartedContainer {
  /** `http://<host>:<mapped port>`, reachable from the test process. */
  readonly url: string;
  readonly control: ControlClient;

  constructor(started: StartedTestContainer, port: number, clientOptions: ControlClientOptions) {
    super(started);
    const host = started.getHost();
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${started.getMappedPort(port)}`;
    this.control = new ControlClient(this.url, clientOptions);
  }

  getUrl(): string {
    return this.url;
  }
}
