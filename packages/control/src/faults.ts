import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type Clock, coreError, type TimerHandle, type TokenService } from '@racedata/core';
import type { FaultRoutes } from './fault-routes';
import { FaultWaits, type WaitKind } from './fault-waits';
import type { SessionTransport, FaultMatch, FaultAction, FaultRuleInput, FaultRule } from './wire';

interface ActiveRule {
  readonly rule: FaultRule;
  readonly expiry: TimerHandle | undefined;
}

/** A live WebSocket session the control plane may close. */
export interface LiveSession {
  readonly user: string;
  readonly transport: SessionTransport;
  readonly path: string;
  close(code: number, reason: string): void;
}

const HTTP_ACTIONS: ReadonlySet<FaultAction['type']> = new Set(['status', 'delay', 'hold', 'disconnect']);

/**
 * The control plane's fault rules (POST /_sim/faults): answered in front of the simulator's
 * HTTP handling and its WebSocket upgrades, applied to live sessions, and asked by the
 * transient fan-out whether a delivery is dropped. Rules expire after `times` firings or
 * `forMs` on the simulator's (advanceable) clock.
 */
export class Faults {
  private readonly rules = new Map<string, ActiveRule>();
  private readonly sessions = new Set<LiveSession>();
  /**
   * Requests hold and delay rules keep waiting. Kept apart from the rules: a delay rule used up
   * by its last firing is gone while its request still waits, and reset and close() must still
   * let that request go and cancel its timer (or the timer, up to 24 h on the real clock, keeps
   * the process alive after close() and the request is cut instead of answered).
   */
  readonly waits: FaultWaits;
  /** Close codes the control plane has closed sessions with (metrics label them; see close-code-label.ts). */
  readonly closeCodes = new Set<number>();
  private readonly fireListeners: Array<(rule: FaultRule) => void> = [];
  private nextId = 1;

  constructor(
    private readonly clock: Clock,
    private readonly tokens: TokenService,
    /** The simulator's own routes (from its description): what a request's path reaches. */
    readonly routes: FaultRoutes,
  ) {
    this.waits = new FaultWaits(clock);
  }

  get size(): number {
    return this.rules.size;
  }

  list(): FaultRule[] {
    return [...this.rules.values()].map((r) => ({ ...r.rule }));
  }

  add(input: FaultRuleInput): FaultRule {
    const rule: FaultRule = { id: `f${this.nextId++}`, ...input, fired: 0 };
    const expiry =
      input.forMs === undefined ? undefined : this.clock.setTimeout(() => this.expire(rule.id), input.forMs);
    this.rules.set(rule.id, { rule, expiry });
    if (rule.action.type === 'disconnect') {
      for (const session of [...this.sessions]) {
        if (!this.active(rule)) break;
        if (this.matchesSession(rule.match, session)) this.fireDisconnect(rule, session);
      }
    }
    return { ...rule };
  }

  /** Removes one rule, letting what it holds or delays go on now; false when there is none. */
  remove(id: string): boolean {
    if (!this.drop(id)) return false;
    this.waits.releaseRule(id);
    return true;
  }

  /** Removes every rule and lets every held or delayed request go on now (reset, DELETE /_sim/faults). */
  clear(): number {
    const ids = [...this.rules.keys()];
    for (const id of ids) this.drop(id);
    this.waits.releaseAll();
    return ids.length;
  }

  /**
   * The simulator is closing: removes every rule and lets every held or delayed request go on
   * now, so the simulator answers it as it shuts down and no fault timer outlives close().
   */
  close(): void {
    this.clear();
  }

  /** `forMs` ran out: what the rule holds goes on; what it delays still waits its own time. */
  private expire(id: string): void {
    if (this.drop(id)) this.waits.releaseRule(id, 'hold');
  }

  private drop(id: string): boolean {
    const active = this.rules.get(id);
    if (!active) return false;
    this.rules.delete(id);
    active.expiry?.cancel();
    return true;
  }

  /** Tracks a live session; it is closed at once if a disconnect rule matches it. */
  register(session: LiveSession): () => void {
    this.sessions.add(session);
    const unregister = () => {
      this.sessions.delete(session);
    };
    for (const { rule } of this.rules.values()) {
      if (
        rule.action.type === 'disconnect' &&
        this.active(rule) &&
        this.matchesSession(rule.match, session)
      ) {
        this.fireDisconnect(rule, session);
        break;
      }
    }
    return unregister;
  }

  /** Closes matching live sessions now; returns how many. */
  closeSessions(filter: { user?: string; transport?: SessionTransport }, code: number): number {
    let closed = 0;
    for (const session of [...this.sessions]) {
      if (filter.user !== undefined && session.user !== filter.user) continue;
      if (filter.transport !== undefined && session.transport !== filter.transport) continue;
      this.sessions.delete(session);
      this.closeCodes.add(code);
      session.close(code, 'closed by the control plane');
      closed++;
    }
    return closed;
  }

  /** Whether a transient delivery to this user is swallowed (a drop rule fires). */
  drops(user: string, transport: SessionTransport, channel: string | null): boolean {
    // Asked once per delivery of a fan-out: with no rule at all, not even an iterator is made.
    if (this.rules.size === 0) return false;
    for (const { rule } of this.rules.values()) {
      if (rule.action.type !== 'drop' || !this.active(rule)) continue;
      const m = rule.match;
      if (m.transport !== undefined && m.transport !== transport) continue;
      if (m.user !== undefined && m.user !== user) continue;
      if (m.channel !== undefined && m.channel !== channel) continue;
      this.fire(rule);
      return true;
    }
    return false;
  }

  /** Applies the first matching HTTP rule to a request; `proceed` runs the simulator's handling. */
  gateRequest(req: IncomingMessage, res: ServerResponse, proceed: () => void): void {
    const rule = this.rules.size === 0 ? undefined : this.httpRule(req, false);
    if (!rule) return proceed();
    const action = rule.action;
    this.fire(rule);
    switch (action.type) {
      case 'status':
        return sendStatus(res, rule, action);
      case 'disconnect':
        return cut(req.socket, action.reset === true);
      default:
        return this.waits.waitRequest(rule.id, ...waitOf(action), res, proceed);
    }
  }

  /** The same for a WebSocket upgrade; a disconnect without reset applies once the session is live. */
  gateUpgrade(req: IncomingMessage, socket: Duplex, proceed: () => void): void {
    const rule = this.rules.size === 0 ? undefined : this.httpRule(req, true);
    if (!rule) return proceed();
    const action = rule.action;
    this.fire(rule);
    switch (action.type) {
      case 'status': {
        const { type, body } = statusBody(rule, action);
        socket.end(
          `HTTP/1.1 ${action.status} ${STATUS_CODES[action.status] ?? 'Error'}\r\nConnection: close\r\n` +
            `Content-Type: ${type}\r\n${action.retryAfter === undefined ? '' : `Retry-After: ${action.retryAfter}\r\n`}` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        return;
      }
      case 'disconnect':
        return cut(socket as Socket, true);
      default:
        return this.waits.waitUpgrade(rule.id, ...waitOf(action), socket, proceed);
    }
  }

  private httpRule(req: IncomingMessage, upgrade: boolean): FaultRule | undefined {
    const path = (req.url ?? '/').split('?')[0] as string;
    // The route the request will take, not its spelling: /A/B/ is the route /a/b.
    const route = upgrade ? this.routes.upgradeRouteOf(path) : this.routes.httpRouteOf(path);
    let user: string | null | undefined;
    const userOf = (): string | null => {
      if (user === undefined) {
        try {
          user = this.tokens.verifyAuthorization(req.headers.authorization).key;
        } catch {
          user = null;
        }
      }
      return user;
    };
    for (const { rule } of this.rules.values()) {
      const { action, match } = rule;
      if (!HTTP_ACTIONS.has(action.type) || !this.active(rule)) continue;
      if (upgrade && action.type === 'disconnect' && action.reset !== true) continue;
      if (match.transport !== undefined && match.transport !== route.transport) continue;
      if (match.path !== undefined && !this.routes.pathMatches(match.path, route)) continue;
      if (match.user !== undefined && userOf() !== match.user) continue;
      return rule;
    }
    return undefined;
  }

  private matchesSession(match: FaultMatch, session: LiveSession): boolean {
    if (match.transport !== undefined && match.transport !== session.transport) return false;
    if (match.user !== undefined && match.user !== session.user) return false;
    if (
      match.path !== undefined &&
      !this.routes.pathMatches(match.path, this.routes.upgradeRouteOf(session.path))
    ) {
      return false;
    }
    return true;
  }

  private fireDisconnect(rule: FaultRule, session: LiveSession): void {
    const action = rule.action;
    if (action.type !== 'disconnect') return;
    this.fire(rule);
    this.sessions.delete(session);
    this.closeCodes.add(action.code ?? 1011);
    session.close(action.code ?? 1011, `fault ${rule.id}`);
  }

  /** Hold rules stay (keeping what they hold) once used up, until removed or expired. */
  private active(rule: FaultRule): boolean {
    return rule.times === undefined || rule.fired < rule.times;
  }

  /** Calls `listener` each time a rule fires (the metrics count firings by action). */
  onFire(listener: (rule: FaultRule) => void): void {
    this.fireListeners.push(listener);
  }

  private fire(rule: FaultRule): void {
    rule.fired++;
    for (const listener of this.fireListeners) listener(rule);
    // Used up: gone without releasing what it delays, which still waits its time.
    if (rule.action.type !== 'hold' && !this.active(rule)) this.drop(rule.id);
  }
}

/** The wait a hold or delay action asks for (the other HTTP actions never wait). */
function waitOf(action: FaultAction): [WaitKind, number] {
  return action.type === 'delay' ? ['delay', action.ms] : ['hold', 0];
}

function statusBody(
  rule: FaultRule,
  action: Extract<FaultAction, { type: 'status' }>,
): { type: string; body: string } {
  if (typeof action.body === 'string') return { type: 'text/plain; charset=utf-8', body: action.body };
  const body = action.body ?? {
    status: 'fail',
    code: 'INJECTED_FAULT',
    message: `injected by fault rule ${rule.id}`,
  };
  return { type: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

function sendStatus(
  res: ServerResponse,
  rule: FaultRule,
  action: Extract<FaultAction, { type: 'status' }>,
): void {
  const { type, body } = statusBody(rule, action);
  res.writeHead(action.status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(action.retryAfter !== undefined && { 'retry-after': String(action.retryAfter) }),
  });
  res.end(body);
}

/** Ends the connection without an answer; `reset` destroys it with a TCP RST. */
function cut(socket: Socket, reset: boolean): void {
  if (reset && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else if (reset) socket.destroy();
  else socket.end();
}

export function unknownFault(id: string): Error {
  return coreError('NOT_FOUND', `no fault rule "${id.slice(0, 40)}"`);
}
