import type {
  ClockAdvance,
  CloseConnectionsFilter,
  EventInput,
  FaultRule,
  FaultRuleInput,
  Health,
  InjectOptions,
  InjectResult,
  JournalPage,
  JournalQuery,
  PostResult,
  ResetOptions,
  ResetResult,
  SandboxInfo,
  SandboxOptions,
  SimState,
  WaitOptions,
} from './control-types';
import { errorFromAnswer, JournalWaitTimeoutError, unexpectedAnswer } from './errors';
import { expectJson, expectText, send, type HttpCall, type HttpSettings } from './http-call';
import { sandboxHandle, type Sandbox } from './sandbox';

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

/**
 * A typed client for a simulator's control plane (/_sim/*, /metrics) and its injection
 * endpoints, over plain HTTP: it works against an in-process simulator, a container or another
 * machine alike. Every failed request throws a ControlError carrying the server's status, code
 * and message; waitFor() throws JournalWaitTimeoutError with the entries it did see.
 *
 * ```ts
 * const control = new ControlClient('http://127.0.0.1:3000', { token: 'secret' });
 * await control.reset();
 * await control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { race: 1 } });
 * await control.waitFor({ kind: 'delivered', user: 'testuser' }, { count: 1, timeout: 2000 });
 * ```
 */
export class ControlClient {
  /** The base URL, without a trailing slash; a sandbox's includes its base path. */
  readonly baseUrl: string;
  private readonly http: HttpSettings;

  constructor(
    baseUrl: string | URL,
    private readonly options: ControlClientOptions = {},
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

  /** DELETE /_sim/faults/{id}; ControlError 404 NOT_FOUND when there is no such rule (any more). */
  async removeFault(id: string): Promise<void> {
    await this.json({ method: 'DELETE', path: `/_sim/faults/${encodeURIComponent(id)}`, control: true });
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

  /** GET /metrics: Prometheus text. */
  async metrics(): Promise<string> {
    return expectText(await send(this.http, { method: 'GET', path: '/metrics', control: true }));
  }

  /** POST /api/message on the JSON simulator: stored (durable) or broadcast (transient) by channel. */
  async post(message: EventInput): Promise<PostResult> {
    const answer = await this.json<{ data: PostResult }>(
      { method: 'POST', path: '/api/message', json: message, control: false },
      [201, 202],
    );
    return answer.data;
  }

  /**
   * POST /customerapi/channel/{channel}/Durable|NonDurable?payloadKey= on the legacy simulator:
   * the XML goes to every user (channel `id`, the default) or a channel's subscribers, queued for
   * the long poll (durable, the default) or sent to live STOMP sessions.
   */
  async inject(xml: string, options: InjectOptions = {}): Promise<InjectResult> {
    const channel = encodeURIComponent(options.channel ?? 'id');
    const answer = await this.json<{ data: InjectResult }>({
      method: 'POST',
      path: `/customerapi/channel/${channel}/${options.durable === false ? 'NonDurable' : 'Durable'}`,
      query: { payloadKey: options.payloadKey },
      body: xml,
      contentType: 'application/xml; charset=utf-8',
      control: false,
    });
    return answer.data;
  }

  /**
   * POST /_sim/sandboxes: an isolated simulator inside this one, with its own store or queues,
   * journal, faults, clock and user tokens. Its handle's `url` works everywhere this client's
   * base URL does; close() frees it.
   */
  async sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
    const info = await this.json<SandboxInfo>(
      { method: 'POST', path: '/_sim/sandboxes', json: options, control: true },
      [201],
    );
    const control = new ControlClient(`${this.baseUrl}${info.basePath}`, this.options);
    return sandboxHandle(info, control, () => this.deleteSandbox(info.id));
  }

  /** DELETE /_sim/sandboxes/{id}: closes the sandbox's sessions and frees it. */
  async deleteSandbox(id: string): Promise<void> {
    await this.json({ method: 'DELETE', path: `/_sim/sandboxes/${encodeURIComponent(id)}`, control: true });
  }

  private async json<T>(call: HttpCall, ok?: readonly number[]): Promise<T> {
    return expectJson<T>(await send(this.http, call), ok);
  }
}
