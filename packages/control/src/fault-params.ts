import {
  type ChannelCatalog,
  faultTransports,
  sessionTransports,
  type SimulatorDescription,
  type SimulatorKind,
  type UserTable,
} from '@racedata/core';
import { invalid, isObject, onlyKeys } from './body-checks';
import { checkMatchCanFire } from './fault-match-check';
import type { FaultRoutes } from './fault-routes';
import type { SessionTransport, FaultMatch, FaultAction, FaultRuleInput } from './wire';

export interface FaultValidationContext {
  readonly kind: SimulatorKind;
  /** Which transports exist, which a rule may name and which are sessions. */
  readonly description: Pick<SimulatorDescription, 'transports'>;
  readonly routes: FaultRoutes;
  readonly users: UserTable;
  readonly catalog: ChannelCatalog;
}

export const MAX_FAULT_MS = 24 * 3_600_000;
const ACTIONS = ['status', 'delay', 'hold', 'disconnect', 'drop'];

function int(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`"${name}" must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** Close codes an endpoint may send (RFC 6455 7.4: 1004-1006 and 1015 are reserved). */
export function isSendableCloseCode(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999)
  );
}

function closeCode(value: unknown, name: string): number {
  const code = int(value, name, 1000, 4999);
  if (!isSendableCloseCode(code)) {
    throw invalid(`"${name}" ${code} is reserved; use 1000-1003, 1007-1014 or 3000-4999`);
  }
  return code;
}

function parseMatch(value: unknown, ctx: FaultValidationContext): FaultMatch {
  if (value === undefined) return {};
  if (!isObject(value)) throw invalid('"match" must be a JSON object');
  onlyKeys(value, ['transport', 'path', 'user', 'channel'], 'match');
  const { transport, path, user, channel } = value;
  if (transport !== undefined) {
    const known = faultTransports(ctx.description);
    if (typeof transport !== 'string') {
      throw invalid(`"match.transport" must be one of ${known.join(', ')}`);
    }
    // A rule naming a transport this simulator lacks could never fire.
    if (!known.includes(transport)) {
      throw invalid(
        `the ${ctx.kind} simulator has no "${transport.slice(0, 40)}" transport; it has ${known.join(', ')}`,
      );
    }
  }
  if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/') || path.length > 500)) {
    throw invalid('"match.path" must be a path starting with "/" (a trailing "*" makes it a prefix)');
  }
  if (user !== undefined && (typeof user !== 'string' || !ctx.users.byKey(user))) {
    throw invalid(
      `"match.user" must name a known user; known: ${ctx.users.users.map((u) => u.key).join(', ')}`,
    );
  }
  if (channel !== undefined && (typeof channel !== 'string' || !ctx.catalog.has(channel))) {
    throw invalid('"match.channel" must name a channel of the catalog');
  }
  return {
    ...(transport !== undefined && { transport }),
    ...(path !== undefined && { path }),
    ...(user !== undefined && { user }),
    ...(channel !== undefined && { channel }),
  };
}

function parseAction(value: unknown): FaultAction {
  if (!isObject(value)) throw invalid('"action" must be a JSON object with a "type"');
  switch (value.type) {
    case 'status': {
      onlyKeys(value, ['type', 'status', 'body', 'retryAfter'], 'status action');
      const { body } = value;
      if (body !== undefined && typeof body !== 'string' && !isObject(body)) {
        throw invalid('"action.body" must be a string or a JSON object');
      }
      return {
        type: 'status',
        // A 1xx is never a final answer: 100 cuts the exchange and 101/103 leave the client
        // waiting for the real response forever, so the rule could never do what it says.
        status: int(value.status, 'action.status', 200, 599),
        ...(typeof body === 'string' && { body }),
        ...(isObject(body) && { body }),
        ...(value.retryAfter !== undefined && {
          retryAfter: int(value.retryAfter, 'action.retryAfter', 0, 86_400),
        }),
      };
    }
    case 'delay':
      onlyKeys(value, ['type', 'ms'], 'delay action');
      return { type: 'delay', ms: int(value.ms, 'action.ms', 0, MAX_FAULT_MS) };
    case 'hold':
      onlyKeys(value, ['type'], 'hold action');
      return { type: 'hold' };
    case 'disconnect': {
      onlyKeys(value, ['type', 'code', 'reset'], 'disconnect action');
      if (value.reset !== undefined && typeof value.reset !== 'boolean') {
        throw invalid('"action.reset" must be true or false');
      }
      return {
        type: 'disconnect',
        ...(value.code !== undefined && { code: closeCode(value.code, 'action.code') }),
        ...(value.reset !== undefined && { reset: value.reset }),
      };
    }
    case 'drop':
      onlyKeys(value, ['type'], 'drop action');
      return { type: 'drop' };
    default:
      throw invalid(`"action.type" must be one of ${ACTIONS.join(', ')}`);
  }
}

/** POST /_sim/faults body, or VALIDATION_FAILED saying what is wrong. */
export function parseFaultRule(body: unknown, ctx: FaultValidationContext): FaultRuleInput {
  if (!isObject(body)) throw invalid('fault body must be a JSON object like {"match":{...},"action":{...}}');
  onlyKeys(body, ['match', 'action', 'times', 'forMs'], 'fault');
  const match = parseMatch(body.match, ctx);
  checkMatchCanFire(match, ctx.routes);
  const action = parseAction(body.action);
  if (action.type === 'drop') {
    const sessions = sessionTransports(ctx.description);
    if (match.transport !== undefined && !sessions.includes(match.transport)) {
      throw invalid(
        `drop applies only to transient WebSocket deliveries (${sessions.join(', ')}); long-poll messages are never dropped from a queue`,
      );
    }
    if (match.path !== undefined) throw invalid('drop matches by transport, user and channel, not path');
  } else if (match.channel !== undefined) {
    throw invalid('"match.channel" applies only to drop rules');
  }
  return {
    match,
    action,
    ...(body.times !== undefined && { times: int(body.times, 'times', 1, 1_000_000) }),
    ...(body.forMs !== undefined && { forMs: int(body.forMs, 'forMs', 1, MAX_FAULT_MS) }),
  };
}

/** POST /_sim/connections/close body. */
export function parseCloseRequest(
  body: unknown,
  ctx: FaultValidationContext,
): { user?: string; transport?: SessionTransport; code: number } {
  if (body === undefined) return { code: 1000 };
  if (!isObject(body)) throw invalid('connections/close body must be a JSON object');
  onlyKeys(body, ['user', 'transport', 'code'], 'connections/close');
  const { user, transport } = body;
  if (user !== undefined && (typeof user !== 'string' || !ctx.users.byKey(user))) {
    throw invalid('"user" must name a known user');
  }
  // Only this simulator's session transports: another could never close anything here, so it is
  // refused as it is in a fault rule's match rather than answered {"closed": 0}.
  const sessions = sessionTransports(ctx.description);
  if (transport !== undefined && (typeof transport !== 'string' || !sessions.includes(transport))) {
    throw invalid(
      sessions.length === 1
        ? `"transport" must be "${sessions[0]}", the ${ctx.kind} simulator's session transport`
        : `"transport" must be one of ${sessions.join(', ') || '(none)'}, the ${ctx.kind} simulator's session transports`,
    );
  }
  return {
    ...(user !== undefined && { user }),
    ...(typeof transport === 'string' && { transport }),
    code: body.code === undefined ? 1000 : closeCode(body.code, 'code'),
  };
}

/** POST /_sim/tokens/expire body. */
export function parseExpireRequest(body: unknown, ctx: FaultValidationContext): { user?: string } {
  if (body === undefined) return {};
  if (!isObject(body)) throw invalid('tokens/expire body must be a JSON object');
  onlyKeys(body, ['user'], 'tokens/expire');
  const { user } = body;
  if (user === undefined) return {};
  if (typeof user !== 'string' || !ctx.users.byKey(user)) throw invalid('"user" must name a known user');
  return { user };
}
