import type { UserSpec } from './users';

/** The two simulators: each one's settings defaults and description are keyed by it. */
export type SimulatorKind = 'json' | 'legacy';

/**
 * How a transport meets its client. `request` is answered at once; `poll` is held until a
 * message or its timeout; `session` is a WebSocket the control plane can close
 * (POST /_sim/connections/close, disconnect rules) and whose transient deliveries a drop rule
 * can swallow.
 */
export type TransportKind = 'request' | 'poll' | 'session';

/** One of a simulator's customer transports, as the control plane, documents and console see it. */
export interface TransportDescription {
  /** Its name on the wire: a fault rule's `match.transport`, a journal entry's `transport`. */
  readonly name: string;
  /**
   * Its routes as the simulator spells them, matched in any letter case; `{name}` stands for one
   * path segment. A session's paths are its WebSocket upgrade paths.
   */
  readonly paths: readonly string[];
  readonly kind: TransportKind;
  /** Whether a fault rule may name it. */
  readonly faultTarget: boolean;
  /** Whether messages handed to a client over it are journalled (delivered entries carry its name). */
  readonly journalled: boolean;
  /** The journal `source` of the messages a client hands in over it, when it takes messages in. */
  readonly source?: string;
  /**
   * Its requests carry no bearer token (the client names itself by key and secret in the body,
   * which a fault rule is applied before), so a rule naming a user could never fire on it.
   */
  readonly tokenless?: boolean;
}

/** A built-in channel catalog: the channel names of each kind (ChannelCatalog.fromJSON reads it). */
export interface ChannelLists {
  readonly durable: readonly string[];
  readonly transient: readonly string[];
}

/**
 * What a simulator declares about itself, once, in its own package: core, the control plane,
 * the documents and the console read it instead of naming either simulator's routes, transports
 * or users.
 */
export interface SimulatorDescription {
  readonly kind: SimulatorKind;
  /** In the order the documents, error messages and the console list them. */
  readonly transports: readonly TransportDescription[];
  /** The users it starts with unless USERS_FILE replaces them. */
  readonly users: readonly UserSpec[];
  /** The channel catalog it starts with unless CHANNELS_FILE replaces it. */
  readonly channels: ChannelLists;
}

/** A transport as GET /_sim/state lists it, for a client (the console) that builds its forms from it. */
export interface TransportInfo {
  readonly name: string;
  readonly kind: TransportKind;
  readonly paths: readonly string[];
  readonly faultTarget: boolean;
  readonly journalled: boolean;
  readonly source?: string;
}

/** The names of the transports that pass `test`, in the description's order. */
export function transportNames(
  description: Pick<SimulatorDescription, 'transports'>,
  test: (transport: TransportDescription) => boolean,
): string[] {
  return description.transports.filter(test).map((t) => t.name);
}

/** Transports a fault rule may name. */
export function faultTransports(description: Pick<SimulatorDescription, 'transports'>): string[] {
  return transportNames(description, (t) => t.faultTarget);
}

/** WebSocket session transports: what connections/close and drop rules act on. */
export function sessionTransports(description: Pick<SimulatorDescription, 'transports'>): string[] {
  return transportNames(description, (t) => t.kind === 'session');
}

/** Transports the journal names: those whose deliveries it records, and sessions (their closes). */
export function journalTransports(description: Pick<SimulatorDescription, 'transports'>): string[] {
  return transportNames(description, (t) => t.journalled || t.kind === 'session');
}

/** The journal sources of received messages: what the transports take in, then the replay and the race day. */
export function journalSources(description: Pick<SimulatorDescription, 'transports'>): string[] {
  const sources = description.transports.flatMap((t) => (t.source === undefined ? [] : [t.source]));
  return [...new Set([...sources, 'replay', 'race-day'])];
}

/** Every route path of every transport, in order (the route labels of GET /metrics). */
export function transportPaths(description: Pick<SimulatorDescription, 'transports'>): string[] {
  return description.transports.flatMap((t) => t.paths);
}

/** The transports as GET /_sim/state lists them. */
export function transportInfo(description: Pick<SimulatorDescription, 'transports'>): TransportInfo[] {
  return description.transports.map(({ name, kind, paths, faultTarget, journalled, source }) => ({
    name,
    kind,
    paths: [...paths],
    faultTarget,
    journalled,
    ...(source !== undefined && { source }),
  }));
}
