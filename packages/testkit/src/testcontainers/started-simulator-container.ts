import { AbstractStartedContainer } from 'testcontainers';
import type { ControlClient } from '../control-client';
import type { SimulatorUser } from '../control-types';
import type { StartedParts } from './simulator-container';

/**
 * A running simulator container: where it is on the host, its users and a control client of
 * its kind bound to it.
 */
export abstract class StartedRaceDataSimulatorContainer<
  C extends ControlClient = ControlClient,
> extends AbstractStartedContainer {
  private readonly baseUrl: string;

  protected constructor(
    parts: StartedParts,
    /** A client of the simulator's kind, bound to getBaseUrl() (with the control token, if set). */
    readonly control: C,
    private readonly users: readonly SimulatorUser[] | undefined,
  ) {
    super(parts.started);
    this.baseUrl = control.baseUrl;
  }

  /** The host port the simulator's port (3000 or 8080) is mapped to. */
  getPort(): number {
    return Number(new URL(this.baseUrl).port);
  }

  /** `http://<host>:<mapped port>`, reachable from the test process. */
  getBaseUrl(): string {
    return this.baseUrl;
  }

  /** The users with key, secret, token and channels, as GET /_sim/users listed them at start. */
  getUsers(): readonly SimulatorUser[] {
    if (this.users === undefined) {
      throw new Error('getUsers(): the container runs with CONTROL_API=off, so its users cannot be read');
    }
    return this.users;
  }
}

/** `http://<host>:<mapped port>` of a started simulator container, brackets for an IPv6 host. */
export function baseUrlOf(parts: StartedParts): string {
  const host = parts.started.getHost();
  return `http://${host.includes(':') ? `[${host}]` : host}:${parts.started.getMappedPort(parts.port)}`;
}
