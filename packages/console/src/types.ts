/** The shapes the console reads from /_sim/* (see packages/core/src/control). */
export interface Entry {
  seq: number;
  time: string;
  kind: 'received' | 'delivered' | 'closed';
  channel?: string;
  durable?: boolean;
  source?: string;
  user?: string;
  transport?: string;
  status?: number;
  code?: number;
  eventId?: number;
  payloadKey?: string;
}

export interface UserState {
  sockets: number;
  heldPolls: number;
  queueDepth: number;
  unconfirmed: number;
}

export interface ReplayView {
  recorded: number;
  on: boolean;
  paused: boolean;
  mode: 'interval' | 'timed' | null;
  intervalMs: number | null;
  maxDelayMs: number | null;
  position: number;
  total: number;
  loops: number;
  sent: number;
  nextRace: string | null;
}

export interface FaultRule {
  id: string;
  match: { transport?: string; path?: string; user?: string; channel?: string };
  /** A status rule's body is shown by its size only (GET /_sim/faults has it). */
  action: { type: string; status?: number; ms?: number; code?: number; bodyBytes?: number };
  times?: number;
  forMs?: number;
  fired: number;
}

export interface SimState {
  simulator: 'json' | 'legacy';
  /** The simulator's time when this state was sent; the page moves it on by itself. */
  time: string;
  clockOffsetMs: number;
  users: Record<string, UserState>;
  store?: { events: number; bytes: number; lastEventId: number };
  queues?: { messages: number; bytes: number };
  replay: ReplayView;
  faults: FaultRule[];
  journal: { entries: number; max: number; lastSeq: number };
}

/** One of GET /_sim/state's `transports` (packages/core/src/description.ts TransportInfo). */
export interface TransportInfo {
  name: string;
  kind: 'request' | 'poll' | 'session';
  paths: string[];
  faultTarget: boolean;
  journalled: boolean;
  source?: string;
}

export interface CatalogChannel {
  name: string;
  kind: 'durable' | 'transient';
  sample: { message: Record<string, unknown> } | { xml: string; payloadKey: string } | null;
}

export interface SimUser {
  key: string;
  name: string;
  token: string;
  channels: string[];
}
