import { CERTIFY_TIMINGS } from '../../src/timings';
import type {
  AnswerChange,
  ControlCalls,
  FrameChange,
  FrontDoor,
  OutageOutcome,
  OutagePlan,
  ScenarioContext,
  SilencedSession,
  Traffic,
  TrafficEvent,
  TrafficKind,
  TrafficOf,
} from '../../src/types';

type Scheduled = { readonly at: number; readonly event: TrafficEvent };

/** A wait at least this long is a watch kept beside other waits, not a wait of its own. */
const WATCH_MS = 60_000;
type Hook = (fake: FakeContext) => void;
/** An event as a test schedules it: the time comes from when. */
type Unscheduled = TrafficEvent extends infer E
  ? E extends TrafficEvent
    ? Omit<E, 'at' | 'endedAt'>
    : never
  : never;

/**
 * A ScenarioContext on virtual time: scenarios wait and await traffic as they do in a run, but
 * each wait jumps straight to the next scheduled event, so a 10 s scenario tests in microseconds
 * and a timing verdict does not depend on the machine. Control calls are recorded and may
 * schedule what a client would do in answer (`on`).
 */
export class FakeContext {
  time = 1_000_000;
  readonly seen: TrafficEvent[] = [];
  private readonly pending: Scheduled[] = [];
  readonly calls: string[] = [];
  private readonly hooks = new Map<string, Hook>();
  /** What GET /_sim/journal answers. */
  journalEntries: Array<Record<string, unknown>> = [];
  echo = false;
  /** What the front door's silence() answers. */
  silenced: SilencedSession[] = [];
  /** Connection attempts of an outage's closing half, ms after it began. */
  outageAttempts: number[] = [];
  /** The outage does not come back (its port taken), with this error. */
  outageError: string | undefined;
  readonly frameChanges = new Set<FrameChange>();
  /** Waits that only watch (see WATCH_MS): told of each event as time moves on for other reasons. */
  private readonly watchers = new Set<(event: TrafficEvent) => void>();
  readonly answerChanges = new Set<AnswerChange>();

  /** Schedules an event `afterMs` from now (virtual). */
  after(afterMs: number, event: Unscheduled): this {
    const at = this.time + afterMs;
    const full = { ...event, at, ...(event.kind === 'request' && { endedAt: at + 5 }) } as TrafficEvent;
    this.pending.push({ at, event: full });
    this.pending.sort((a, b) => a.at - b.at);
    return this;
  }

  /** What happens when a scenario makes a control call or a front-door call (by method name). */
  on(call: keyof ControlCalls | keyof FrontDoor, hook: Hook): this {
    this.hooks.set(call, hook);
    return this;
  }

  private advanceTo(t: number): void {
    while (this.pending[0] && this.pending[0].at <= t) {
      const next = this.pending.shift() as Scheduled;
      this.time = Math.max(this.time, next.at);
      this.seen.push(next.event);
      for (const watch of [...this.watchers]) watch(next.event);
    }
    this.time = Math.max(this.time, t);
  }

  private call(name: keyof ControlCalls | keyof FrontDoor, detail = ''): void {
    this.calls.push(`${name}${detail}`);
    this.hooks.get(name)?.(this);
  }

  context(): ScenarioContext {
    const traffic: Traffic = {
      all: () => [...this.seen],
      of: <K extends TrafficKind>(kind: K, since = 0) =>
        this.seen.filter((e): e is TrafficOf<K> => e.kind === kind && e.at >= since),
      next: async <K extends TrafficKind>(
        kind: K,
        test: (event: TrafficOf<K>) => boolean,
        options: { readonly timeoutMs: number; readonly since?: number },
      ) => {
        const since = options.since ?? this.time;
        const until = this.time + options.timeoutMs;
        const match = (e: TrafficEvent): e is TrafficOf<K> =>
          e.kind === kind && e.at >= since && test(e as TrafficOf<K>);
        const already = this.seen.find(match);
        if (already) return already;
        if (options.timeoutMs >= WATCH_MS) {
          // A watch beside the scenario's own waits (the client's exit): it never moves time itself.
          return new Promise<TrafficOf<K> | undefined>((resolve) => {
            const watch = (e: TrafficEvent) => {
              if (!match(e)) return;
              this.watchers.delete(watch);
              resolve(e);
            };
            this.watchers.add(watch);
          });
        }
        const upcoming = this.pending.find((p) => p.at <= until && match(p.event));
        this.advanceTo(upcoming ? upcoming.at : until);
        return upcoming ? (upcoming.event as TrafficOf<K>) : undefined;
      },
    };
    const control: ControlCalls = {
      postJson: async () => (this.call('postJson'), {}),
      inject: async (_channel, _durable, _xml, payloadKey) => this.call('inject', ` ${payloadKey ?? ''}`),
      addFault: async (rule) => (this.call('addFault', ` ${JSON.stringify(rule)}`), 'f1'),
      deleteFault: async () => this.call('deleteFault'),
      faultFired: async () => (this.call('faultFired'), 1),
      expireTokens: async () => this.call('expireTokens'),
      closeConnections: async () => (this.call('closeConnections'), 1),
      journal: async () => (this.call('journal'), this.journalEntries),
    };
    const frontDoor: FrontDoor = {
      silence: (paths) => (this.call('silence', ` ${paths.join(',')}`), this.silenced),
      inject: (_paths, text) => (this.call('inject', ` frame ${text.slice(0, 60)}`), 1),
      changeFrames: (change) => {
        this.frameChanges.add(change);
        return () => this.frameChanges.delete(change);
      },
      changeAnswers: (change) => {
        this.answerChanges.add(change);
        return () => this.answerChanges.delete(change);
      },
      outage: async (plan: OutagePlan): Promise<OutageOutcome> => {
        const downAt = this.time;
        this.call('outage', ` ${plan.refusedMs}+${plan.closingMs}`);
        this.advanceTo(downAt + plan.refusedMs + plan.closingMs);
        const attempts = this.outageAttempts.map((ms) => downAt + ms);
        if (this.outageError !== undefined) return { downAt, dropped: 1, attempts, error: this.outageError };
        return { downAt, closingAt: downAt + plan.refusedMs, backAt: this.time, dropped: 1, attempts };
      },
    };
    return {
      suite: 'stream',
      base: 'http://127.0.0.1:1',
      wsBase: 'ws://127.0.0.1:1',
      user: { key: 'certify-client', secret: 'secret' },
      timings: CERTIFY_TIMINGS,
      traffic,
      control,
      frontDoor,
      now: () => this.time,
      wait: async (ms) => (this.advanceTo(this.time + ms), true),
      echo: this.echo,
      signal: new AbortController().signal,
    };
  }
}

export const USER = 'certify-client';

export const authRequest = (status = 200): Omit<TrafficOf<'request'>, 'at' | 'endedAt'> => ({
  kind: 'request',
  method: 'POST',
  path: '/customerapi/authenticate/subscription',
  query: {},
  auth: 'none',
  status,
});

export const upgrade = (path: string, auth: TrafficOf<'upgrade'>['auth'] = 'none') =>
  ({ kind: 'upgrade', path, auth }) as const;

export const opened = (transport: string) => ({ kind: 'session-open', user: USER, transport }) as const;

export const closed = (transport: string, code: number) =>
  ({ kind: 'session-closed', user: USER, transport, code }) as const;

/** A STOMP CONNECT answered: the heart-beats it negotiated (0 = none). */
export const stompConnected = (expectEveryMs: number, version = '1.2') =>
  ({ kind: 'stomp-connected', user: USER, version, expectEveryMs, sendEveryMs: 5_000 }) as const;
