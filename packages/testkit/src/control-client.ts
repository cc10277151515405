import type {
  CatalogChannel,
  CertificationState,
  ClockAdvance,
  CloseConnectionsFilter,
  FaultRule,
  FaultRuleInput,
  Health,
  JournalPage,
  JournalQuery,
  KeptMessage,
  PayloadSchema,
  RaceDayActionResult,
  RaceDayGotoRequest,
  RaceDayGotoResult,
  RaceDayRequest,
  RaceDayState,
  ReplaySpeed,
  ReplayView,
  ResetOptions,
  ResetResult,
  SandboxInfo,
  SandboxList,
  SandboxOptions,
  SchemaIndex,
  SimState,
  SimulatorUser,
  WaitOptions,
} from './control-types';
import { ControlError, errorFromAnswer, JournalWaitTimeoutError, unexpectedAnswer } from './errors';
import { expectJson, expectText, send, type HttpCall, type HttpSettings } from './http-call';
import { sandboxHandle, type SandboxOf } from './sandbox';
import { actionCalls, type RaceDaySteering } from './race-day-steering';

export interface ControlClientOptions {
  /** The simulator's CONTROL_TOKEN, sent as `Authorization: Bearer` on /_sim/* and /metrics. */
  readonly token?: string;
  /** How long a request may take before it fails with REQUEST_TIMEOUT (default 10000 ms). */
  readonly requestTimeoutMs?: number;
  /** The fetch to use (default: the global one), e.g. one that goes through a proxy. */
  readonly fetch?: typeof fetch;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_WAIT_MS = 5_000;

/** A sandbox made by ControlClient.sandbox(), its control a client of the parent's kind. */
export type Sandbox<C extends ControlClient = ControlClient> = SandboxOf<C>;

/**
 * A typed client for the control plane both simulators share (/_sim/*, /metrics, /health), over
 * plain HTTP: it works against an in-process simulator, a container or another machine alike.
 * Every failed request throws a ControlError carrying the server's status, code and message;
 * waitFor() throws JournalWaitTimeoutError with the entries it did see. What only one simulator
 * has (POST /api/message and seeding; XML injection) is on JsonControlClient and
 * LegacyControlClient, so calling it on the other does not compile.
 *
 * ```ts
 * const control = new ControlClient('http://127.0.0.1:3000', { token: 'secret' });
 * await control.reset();
 * await control.waitFor({ kind: 'delivered', user: 'testuser' }, { count: 1, timeout: 2000 });
 * ```
 */
export class ControlClient {
  /** The base URL, without a trailing slash; a sandbox's includes its base path. */
  readonly baseUrl: string;
  private readonly http: HttpSettings;

  constructor(
    baseUrl: string | URL,
    protected readonly options: ControlClientOptions = {},
  ) {
    this.baseUrl = String(baseUrl).replace(/\/+$/, '');
    this.http = {
      baseUrl: this.baseUrl,
      token: options.token,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    };
  }

  /** GET /health. */
  health(): Promise<Health> {
    return this.json({ method: 'GET', path: '/health', control: false });
  }

  /** POST /_sim/reset: clears the store or queues, journal, faults and token expiries by default. */
  reset(options: ResetOptions = {}): Promise<ResetResult> {
    return this.json({ method: 'POST', path: '/_sim/reset', json: options, control: true });
  }

  /** GET /_sim/state. */
  state(): Promise<SimState> {
    return this.json({ method: 'GET', path: '/_sim/state', control: true });
  }

  /** GET /_sim/journal: one page of matching entries, oldest first. */
  journal(query: JournalQuery = {}): Promise<JournalPage> {
    return this.json({ method: 'GET', path: '/_sim/journal', query: { ...query }, control: true });
  }

  /**
   * Resolves once `count` journal entries match (GET /_sim/journal/wait), with those entries.
   * Pass `since` (a journal `lastSeq` or a page's `nextSince`) to wait only for what happens
   * after it. Throws JournalWaitTimeoutError, carrying what did match, after `timeout` ms.
   */
  async waitFor(filter: JournalQuery, options: WaitOptions = {}): Promise<JournalPage> {
    const count = options.count ?? 1;
    const timeout = options.timeout ?? DEFAULT_WAIT_MS;
    const { limit: _limit, ...query } = filter;
    const answer = await send(this.http, {
      method: 'GET',
      path: '/_sim/journal/wait',
      query: { ...query, count, timeout },
      control: true,
      // The server answers within `timeout`; the client allows that plus its usual margin.
      timeoutMs: timeout + this.http.requestTimeoutMs,
    });
    if (answer.status === 200 || answer.status === 408) {
      const page = expectJson<JournalPage>(answer, [answer.status]);
      if (!Array.isArray(page.entries)) throw unexpectedAnswer(answer.target, answer.status, answer.text);
      if (answer.status === 200) return page;
      throw new JournalWaitTimeoutError(answer.target, query, count, timeout, page.entries, page.nextSince);
    }
    throw errorFromAnswer(answer.target, answer.status, answer.statusText, answer.text);
  }

  /** POST /_sim/faults: the rule as stored, with its `id` and `fired` count. */
  addFault(rule: FaultRuleInput): Promise<FaultRule> {
    return this.json({ method: 'POST', path: '/_sim/faults', json: rule, control: true }, [201]);
  }

  /** GET /_sim/faults: the live rules with how often each fired. */
  async faults(): Promise<FaultRule[]> {
    const page = await this.json<{ rules: FaultRule[] }>({
      method: 'GET',
      path: '/_sim/faults',
      control: true,
    });
    return page.rules;
  }

  /**
   * DELETE /_sim/faults/{id}: true when the rule was live and is now gone, false when there was
   * no such rule any more. A rule with `times` is removed by the simulator itself once it fired
   * that often, so removing it afterwards is no error: the fault is gone either way.
   */
  async removeFault(id: string): Promise<boolean> {
    try {
      await this.json({ method: 'DELETE', path: `/_sim/faults/${encodeURIComponent(id)}`, control: true });
      return true;
    } catch (err) {
      if (err instanceof ControlError && err.status === 404 && err.code === 'NOT_FOUND') return false;
      throw err;
    }
  }

  /**
   * GET /_sim/certification: the certification a `racedata-sim certify` simulator is running
   * (suite, scenario playing, each check's verdict); undefined on any other simulator.
   */
  async certification(): Promise<CertificationState | undefined> {
    try {
      return await this.json<CertificationState>({
        method: 'GET',
        path: '/_sim/certification',
        control: true,
      });
    } catch (err) {
      if (err instanceof ControlError && err.status === 404 && err.code === 'NOT_FOUND') return undefined;
      throw err;
    }
  }

  /** DELETE /_sim/faults: how many rules were removed. */
  async clearFaults(): Promise<number> {
    const answer = await this.json<{ removed: number }>({
      method: 'DELETE',
      path: '/_sim/faults',
      control: true,
    });
    return answer.removed;
  }

  /** POST /_sim/connections/close: closes matching WebSocket/STOMP sessions; how many were closed. */
  async closeConnections(filter: CloseConnectionsFilter = {}): Promise<number> {
    const answer = await this.json<{ closed: number }>({
      method: 'POST',
      path: '/_sim/connections/close',
      json: filter,
      control: true,
    });
    return answer.closed;
  }

  /** POST /_sim/tokens/expire: the user's tokens (or everyone's) answer 401; the keys expired. */
  async expireTokens(user?: string): Promise<string[]> {
    const answer = await this.json<{ expired: string[] }>({
      method: 'POST',
      path: '/_sim/tokens/expire',
      json: user === undefined ? {} : { user },
      control: true,
    });
    return answer.expired;
  }

  /** POST /_sim/clock/advance: moves the simulator's clock (and every timer on it) forward. */
  advanceClock(ms: number): Promise<ClockAdvance> {
    return this.json({ method: 'POST', path: '/_sim/clock/advance', json: { ms }, control: true });
  }

  /** GET /_sim/users: the users with key, secret, fixed token and the channels each may read. */
  async users(): Promise<SimulatorUser[]> {
    const answer = await this.json<{ users: SimulatorUser[] }>({
      method: 'GET',
      path: '/_sim/users',
      control: true,
    });
    return answer.users;
  }

  /** GET /_sim/catalog: every channel with its kind and a recorded sample dated today (or null). */
  async catalog(): Promise<CatalogChannel[]> {
    const answer = await this.json<{ channels: CatalogChannel[] }>({
      method: 'GET',
      path: '/_sim/catalog',
      control: true,
    });
    return answer.channels;
  }

  /** GET /_sim/messages/{seq}: the payload a `received` journal entry carried, while it is kept. */
  message(seq: number): Promise<KeptMessage> {
    return this.json({ method: 'GET', path: `/_sim/messages/${seq}`, control: true });
  }

  /** GET /_sim/replay. */
  replay(): Promise<ReplayView> {
    return this.json({ method: 'GET', path: '/_sim/replay', control: true });
  }

  /** Starts replaying the recordings (409 REPLAY_STATE when running); default: the configured speed. */
  startReplay(speed: ReplaySpeed = {}): Promise<ReplayView> {
    return this.replayCommand({ action: 'start', ...speed });
  }

  pauseReplay(): Promise<ReplayView> {
    return this.replayCommand({ action: 'pause' });
  }

  resumeReplay(): Promise<ReplayView> {
    return this.replayCommand({ action: 'resume' });
  }

  /** A running replay's new speed: one message per `intervalMs`, or the recorded gaps capped. */
  replaySpeed(speed: ReplaySpeed): Promise<ReplayView> {
    return this.replayCommand({ action: 'speed', ...speed });
  }

  /** Skips to the first live message of the next race. */
  nextRace(): Promise<ReplayView> {
    return this.replayCommand({ action: 'next-race' });
  }

  /**
   * The race day. Called, GET /_sim/race-day: the day as it stands on this simulator's clock
   * (meetings, races with their phase, starters, where each edge case sits, how it plays);
   * undefined when none plays. Its members steer the day: `raceDay.plan()` (the same, or a 404
   * ControlError), `raceDay.goto({ trackId, raceNr, phase: 'start', offsetMs: -30_000 })` and one
   * call per action: `raceDay.scratch({ trackId, raceNr, startNr })`, `delayStart`, `deadHeat`...
   */
  readonly raceDay: RaceDaySteering = Object.assign(
    async (): Promise<RaceDayState | undefined> => {
      try {
        return await this.raceDayPlan();
      } catch (err) {
        if (err instanceof ControlError && err.status === 404 && err.code === 'RACE_DAY_NOT_RUNNING')
          return undefined;
        throw err;
      }
    },
    {
      plan: () => this.raceDayPlan(),
      goto: (target: RaceDayGotoRequest) =>
        this.json<RaceDayGotoResult>({
          method: 'POST',
          path: '/_sim/race-day/goto',
          json: target,
          control: true,
        }),
      ...actionCalls((action) =>
        this.json<RaceDayActionResult>({
          method: 'POST',
          path: '/_sim/race-day/actions',
          json: action,
          control: true,
        }),
      ),
    },
  );

  private raceDayPlan(): Promise<RaceDayState> {
    return this.json<RaceDayState>({ method: 'GET', path: '/_sim/race-day', control: true });
  }

  /**
   * POST /_sim/race-day: generates a day and plays it from now, its history stored at once. A
   * field left out takes the simulator's race-day setting (then today, the date's seed, the
   * calendar's meetings, the default edge cases, speed 1, now). A bad option is a ControlError
   * with status 400 (RACE_DAY_INVALID, RACE_DAY_NO_SUCH_RACE) and the day plays on unchanged.
   */
  startRaceDay(request: RaceDayRequest = {}): Promise<RaceDayState> {
    return this.json({ method: 'POST', path: '/_sim/race-day', json: request, control: true });
  }

  /** DELETE /_sim/race-day: true when a day was playing; what it stored and queued stays. */
  async stopRaceDay(): Promise<boolean> {
    const answer = await this.json<{ stopped: boolean }>({
      method: 'DELETE',
      path: '/_sim/race-day',
      control: true,
    });
    return answer.stopped;
  }

  /** GET /_sim/schemas: the JSON channels' payload schemas and how legacy XML maps onto them. */
  payloadSchemas(): Promise<SchemaIndex> {
    return this.json({ method: 'GET', path: '/_sim/schemas', control: true });
  }

  /** GET /_sim/schemas/{channel}: one JSON channel's payload schema (JSON Schema 2020-12). */
  payloadSchema(channel: string): Promise<PayloadSchema> {
    return this.json({ method: 'GET', path: `/_sim/schemas/${encodeURIComponent(channel)}`, control: true });
  }

  /** GET /_sim/openapi.json: the OpenAPI 3.1 document of every HTTP path this simulator serves. */
  openApi(): Promise<Record<string, unknown>> {
    return this.json({ method: 'GET', path: '/_sim/openapi.json', control: true });
  }

  /** GET /_sim/asyncapi.json: the AsyncAPI 3.0 document of its WebSocket endpoint. */
  asyncApi(): Promise<Record<string, unknown>> {
    return this.json({ method: 'GET', path: '/_sim/asyncapi.json', control: true });
  }

  /** GET /metrics: Prometheus text. */
  async metrics(): Promise<string> {
    return expectText(await send(this.http, { method: 'GET', path: '/metrics', control: true }));
  }

  /**
   * POST /_sim/sandboxes: an isolated simulator inside this one, with its own store or queues,
   * journal, faults, clock and user tokens. Its handle's `url` works everywhere this client's
   * base URL does; close() frees it.
   */
  async sandbox(options: SandboxOptions = {}): Promise<Sandbox<this>> {
    const info = await this.json<SandboxInfo>(
      { method: 'POST', path: '/_sim/sandboxes', json: options, control: true },
      [201],
    );
    // The same kind of client as this one, so a JSON sandbox's control can post and a legacy one's inject.
    const Client = this.constructor as new (baseUrl: string, options: ControlClientOptions) => this;
    const control = new Client(`${this.baseUrl}${info.basePath}`, this.options);
    return sandboxHandle(info, control, () => this.deleteSandbox(info.id));
  }

  /** GET /_sim/sandboxes: the live sandboxes and how many may exist at once. */
  sandboxes(): Promise<SandboxList> {
    return this.json({ method: 'GET', path: '/_sim/sandboxes', control: true });
  }

  /** DELETE /_sim/sandboxes/{id}: closes the sandbox's sessions and frees it. */
  async deleteSandbox(id: string): Promise<void> {
    await this.json({ method: 'DELETE', path: `/_sim/sandboxes/${encodeURIComponent(id)}`, control: true });
  }

  private replayCommand(body: Record<string, unknown>): Promise<ReplayView> {
    return this.json({ method: 'POST', path: '/_sim/replay', json: body, control: true });
  }

  /** One request whose answer is JSON with one of the `ok` statuses (default 200). */
  protected async json<T>(call: HttpCall, ok?: readonly number[]): Promise<T> {
    return expectJson<T>(await send(this.http, call), ok);
  }

  /** One request, answered as it came: for bodies that are not JSON (NDJSON uploads). */
  protected send(call: HttpCall) {
    return send(this.http, call);
  }
}
