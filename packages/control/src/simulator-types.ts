/**
 * The shapes on both sides of assembleSimulator(): what a simulator factory returns (Simulator),
 * and what a simulator hands the assembly (SimulatorParts). Declared apart from the assembly so
 * that callers and simulators depend on the shapes, not on how they are put together.
 */
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  RecordedMessage,
  ReplayHandle,
  SimulatorDocs,
  SimulatorSettings,
  UpgradeHandler,
  UpgradeRouter,
  UserTable,
} from '@racedata/core';
import type { DaySink } from '@racedata/race-day';
import type { SimulatorState, ResetCounts, ResetRequest } from './wire';

/** The part of the control plane each simulator provides. */
export interface ControlHooks {
  state(): SimulatorState;
  reset(request: ResetRequest): ResetCounts | Promise<ResetCounts>;
  /** POST /_sim/events (JSON simulator): reads the body itself and answers 201 with the result. */
  seedEvents?(req: IncomingMessage): Promise<Record<string, unknown>>;
}

/** The handlers of a simulator served from another server (Simulator.mount()). */
export interface MountedSimulator {
  readonly handle: RequestListener;
  readonly handleUpgrade: UpgradeHandler;
  close(): Promise<void>;
}

/** Builds a simulator of the same kind, with these settings and users, mounted (not listening). */
export type SandboxFactory = (settings: Partial<SimulatorSettings>, users: UserTable) => MountedSimulator;

/**
 * What each simulator factory returns, the same for both. The factory opens no port; a caller
 * learns everything else over HTTP and WebSocket, as a client would.
 */
export interface Simulator {
  /**
   * The HTTP surface as a request listener (an express app), e.g. for supertest; the /_sim/*
   * control plane is served by the server only.
   */
  readonly app: RequestListener;
  /** The server listen() starts; the WebSocket upgrades are routed on it. */
  readonly server: Server;
  /** Defaults to the configured port and host; starts the auto replay once listening. */
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Answers held polls (204), closes WebSockets, stops timers; resolves when nothing runs. */
  close(): Promise<void>;
  /** Runs on close(), before the server stops. */
  onClose(task: () => void | Promise<void>): void;
  /**
   * Serves the simulator from another server instead of listen(): its request and upgrade
   * handlers (control plane, faults and metrics included), and the replay started. Sandboxes
   * are served this way.
   */
  mount(): MountedSimulator;
}

/**
 * What only the simulator itself can hand the assembly, beside its services
 * (simulatorServices()): its HTTP surface, its replay, its answers to the control plane, how it
 * makes sandboxes and how it shuts down.
 */
export interface SimulatorParts {
  /** The request listener (an express app) and the WebSocket upgrades it serves. */
  readonly http: {
    readonly app: RequestListener;
    /** What serves requests when it is not the app itself (a faster path in front of it). */
    readonly handler?: RequestListener;
    readonly upgrades: UpgradeRouter;
  };
  /** The simulator's own replay of its recordings, started once it listens when configured. */
  readonly replay: {
    readonly handle: ReplayHandle;
    /** The recordings the simulator was given; the console's post forms take samples from them. */
    readonly recordings: readonly RecordedMessage[];
    /** Fills `recordings` when first needed, when the caller left them out of the start. */
    readonly load?: (() => Promise<unknown>) | undefined;
  };
  /** What only the simulator knows of itself for /_sim/* and /metrics. */
  readonly control: {
    readonly hooks: ControlHooks;
    /** Its OpenAPI and AsyncAPI documents, served under /_sim/. */
    readonly docs: SimulatorDocs;
    /** Messages the store or queues dropped to stay within their bounds, since the start. */
    readonly dropped?: () => number;
  };
  /** Where the race day's messages go: the simulator's own publish path, as replay's; absent, it plays none. */
  readonly raceDay?: { readonly sink: DaySink };
  /** Builds a sandbox of this kind (POST /_sim/sandboxes); absent, there are none. */
  readonly sandboxFactory?: SandboxFactory;
  /** The simulator's own shutdown (held polls, queues, sockets), after every onClose task. */
  readonly shutdown: () => void | Promise<void>;
}
