import { isIP } from 'node:net';
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import type { SimulatorKind, SimulatorSettings, UserSpec } from '@racedata/core';
import type { ControlClientOptions } from '../control-client';
import { settingsToEnv } from '../settings-env';

/** The port each image listens on (its PORT). */
export const SIMULATOR_PORTS: Readonly<Record<SimulatorKind, number>> = { json: 3000, legacy: 8080 };

/** Where withUsers, withChannels and withRecordings put their copies inside the container. */
export const CONTAINER_PATHS = {
  usersFile: '/racedata/users.json',
  channelsFile: '/racedata/channels.json',
  recordingsDir: '/racedata/recordings',
} as const;

/** Settings that name a file in the container: copied in by withUsers/withChannels/withRecordings. */
type FileSetting = keyof typeof CONTAINER_PATHS;

const COPY_CALL: Readonly<Record<FileSetting, string>> = {
  usersFile: 'withUsers(table)',
  channelsFile: 'withChannels(catalog)',
  recordingsDir: 'withRecordings(dir)',
};

/**
 * Settings a container takes as environment. Its port and address are the image's own; files
 * are copied in by withUsers, withChannels and withRecordings, since a host path means nothing
 * inside the container.
 */
export type ContainerSettings = Omit<Partial<SimulatorSettings>, 'port' | 'host' | FileSetting>;

/** A USERS_FILE: `{ users: [...] }` or just the list. */
export type UsersTable = readonly UserSpec[] | { readonly users: readonly UserSpec[] };

/** A CHANNELS_FILE: the catalog's channel names by kind. */
export interface ChannelsCatalog {
  readonly durable?: readonly string[];
  readonly transient?: readonly string[];
}

/** What a started container needs from the builder to hand back its clients. */
export interface StartedParts {
  readonly started: StartedTestContainer;
  readonly port: number;
  readonly clientOptions: ControlClientOptions;
  readonly controlApi: boolean;
}

/**
 * A racedata-sim simulator image for Testcontainers, the part both kinds share: settings as
 * environment, files copied in, a wait on /health. JsonSimulatorContainer and
 * LegacySimulatorContainer are what a suite creates.
 */
export abstract class RaceDataSimulatorContainer extends GenericContainer {
  private settings: Partial<SimulatorSettings> = {};
  private clientOptions: Omit<ControlClientOptions, 'token'> = {};

  protected constructor(
    image: string,
    readonly kind: SimulatorKind,
  ) {
    super(image);
    const port = SIMULATOR_PORTS[kind];
    this.withExposedPorts(port)
      .withWaitStrategy(Wait.forHttp('/health', port).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /** CONTROL_TOKEN: /_sim/* then needs it, and the handed-back control client sends it. */
  withControlToken(token: string): this {
    return this.withSettings({ controlToken: token });
  }

  /** Replays the recordings (bundled, or withRecordings') one message every `intervalMs`. */
  withReplay(intervalMs = 1000): this {
    return this.withSettings({ autoReplayIntervalMs: intervalMs });
  }

  /** Copies the table into the container as its USERS_FILE. */
  withUsers(table: UsersTable): this {
    const users = Array.isArray(table) ? table : (table as { users: readonly UserSpec[] }).users;
    return this.copyJson('usersFile', { users });
  }

  /** Copies the catalog into the container as its CHANNELS_FILE. */
  withChannels(catalog: ChannelsCatalog): this {
    return this.copyJson('channelsFile', catalog);
  }

  /** Copies a recordings directory (json/ and legacy/ in it, recordings/README.md) in as RECORDINGS_DIR. */
  withRecordings(dir: string): this {
    // 0o755 on every entry: a directory from mkdtemp is 0o700, and the image runs as `node`.
    this.withCopyDirectoriesToContainer([
      { source: dir, target: CONTAINER_PATHS.recordingsDir, mode: 0o755 },
    ]);
    this.settings = { ...this.settings, recordingsDir: CONTAINER_PATHS.recordingsDir };
    return this;
  }

  /**
   * Simulator settings, passed as their environment variables (LONG_POLL_TIMEOUT_MS=...). A
   * host path for usersFile, channelsFile or recordingsDir is refused: the container cannot
   * see it; withUsers, withChannels and withRecordings copy the content in instead.
   */
  withSettings(settings: ContainerSettings): this {
    for (const key of Object.keys(COPY_CALL) as FileSetting[]) {
      if ((settings as Partial<SimulatorSettings>)[key] !== undefined) {
        throw new TypeError(
          `withSettings({ ${key} }) would pass a host path into the container, where it does not exist; ` +
            `use ${COPY_CALL[key]}, which copies it in`,
        );
      }
    }
    this.settings = { ...this.settings, ...settings };
    return this;
  }

  /** Options of the control client start() hands back (request timeout, fetch). */
  withControlClientOptions(options: Omit<ControlClientOptions, 'token'>): this {
    this.clientOptions = options;
    return this;
  }

  /** Starts the container with the settings as environment, once its /health answers. */
  protected async startSimulator(): Promise<StartedParts> {
    // The URL names the container runtime's host, which is not always localhost or an IP (a
    // remote Docker host by name): /_sim/* must answer to it (CONTROL_ALLOWED_HOSTS).
    // An IP address is always taken, and the setting lists names only.
    const runtimeHost = (await getContainerRuntimeClient()).info.containerRuntime.host.toLowerCase();
    const allowed =
      this.settings.controlAllowedHosts ?? (isIP(runtimeHost) ? undefined : ['localhost', runtimeHost]);
    this.withEnvironment(settingsToEnv({ ...this.settings, controlAllowedHosts: allowed }));
    const token = this.settings.controlToken;
    return {
      started: await super.start(),
      port: SIMULATOR_PORTS[this.kind],
      clientOptions: { ...this.clientOptions, ...(token !== undefined && { token }) },
      controlApi: this.settings.controlApi !== 'off',
    };
  }

  private copyJson(key: 'usersFile' | 'channelsFile', value: unknown): this {
    const target = CONTAINER_PATHS[key];
    // 0o644: the image runs as the unprivileged `node` user, which must read it.
    this.withCopyContentToContainer([{ content: JSON.stringify(value), target, mode: 0o644 }]);
    this.settings = { ...this.settings, [key]: target };
    return this;
  }
}
