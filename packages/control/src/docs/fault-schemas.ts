import {
  COUNT,
  type DocsContext,
  faultTransports,
  integer,
  type JsonSchema,
  objectSchema,
  schemaRef,
  sessionTransports,
} from '@racedata/core';
import { MAX_FAULT_MS } from '../fault-params';

/** Close codes an endpoint may send (RFC 6455 7.4: 1004-1006 and 1015 are reserved). */
export const SENDABLE_CLOSE_CODE: JsonSchema = {
  type: 'integer',
  anyOf: [
    { minimum: 1000, maximum: 1003 },
    { minimum: 1007, maximum: 1014 },
    { minimum: 3000, maximum: 4999 },
  ],
};

function action(type: string, fields: Record<string, JsonSchema>, required: string[], description: string) {
  return objectSchema({ type: { const: type }, ...fields }, ['type', ...required], { description });
}

const ACTIONS: Record<string, JsonSchema> = {
  StatusAction: action(
    'status',
    {
      // A 1xx is never a final answer, so fault-params.ts refuses it.
      status: integer(200, 599),
      body: {
        type: ['string', 'object'],
        description:
          'A string is sent as text/plain, an object as JSON; without one the body is ' +
          '{"status":"fail","code":"INJECTED_FAULT","message":...}',
      },
      retryAfter: integer(0, 86_400, 'Seconds, sent as Retry-After'),
    },
    ['status'],
    'Answer with this status instead of the simulator',
  ),
  DelayAction: action(
    'delay',
    { ms: integer(0, MAX_FAULT_MS) },
    ['ms'],
    'Hold the request this long, then serve it (at once when the rule is removed or on reset); let go when its client hangs up',
  ),
  HoldAction: action(
    'hold',
    {},
    [],
    'Hold the request until the rule is removed or expires, or a reset; let go when its client hangs up',
  ),
  DisconnectAction: action(
    'disconnect',
    {
      code: {
        ...SENDABLE_CLOSE_CODE,
        description: 'Close code for a matching WebSocket session; 1011 by default',
      },
      reset: { type: 'boolean', description: 'Cut the TCP connection with a reset rather than a FIN' },
    },
    [],
    'End the HTTP connection without an answer, or close matching WebSocket sessions (now and as they open)',
  ),
  DropAction: action('drop', {}, [], 'Swallow transient deliveries to WebSocket sessions'),
};

/** POST /_sim/faults and what it answers (fault-params.ts parseFaultRule, faults.ts). */
export function faultSchemas(ctx: DocsContext): Record<string, JsonSchema> {
  const match = objectSchema(
    {
      transport: { enum: faultTransports(ctx.description) },
      path: {
        type: 'string',
        pattern: '^/',
        maxLength: 500,
        description:
          'An exact request path, or a prefix ending in `*`, compared with the route the request takes ' +
          '(any letter case, one trailing slash on HTTP); an exact path of another transport than `transport` is refused',
      },
      user: {
        enum: ctx.users.users.map((u) => u.key),
        description:
          'The user of the bearer token or session; refused with the authenticate transport, whose requests carry a key and secret, not a token',
      },
      channel: { enum: ctx.catalog.names(), description: 'Drop rules only: the channel of the delivery' },
    },
    [],
    { description: 'Every field given must match; none matches everything' },
  );
  const rule = (extra: Record<string, JsonSchema>, required: string[]) =>
    objectSchema(
      {
        ...extra,
        match: schemaRef('FaultMatch'),
        action: schemaRef('FaultAction'),
        times: integer(1, 1_000_000, 'The rule goes after firing this often'),
        forMs: integer(1, MAX_FAULT_MS, "The rule goes after this long on the simulator's clock"),
      },
      required,
    );
  const isDrop: JsonSchema = { properties: { action: { properties: { type: { const: 'drop' } } } } };
  return {
    FaultMatch: match,
    ...ACTIONS,
    FaultAction: { oneOf: Object.keys(ACTIONS).map(schemaRef) },
    FaultRuleRequest: {
      ...rule({}, ['action']),
      // Drops match transient deliveries by transport, user and channel; other rules never by channel.
      if: isDrop,
      then: {
        properties: {
          match: { properties: { transport: { enum: sessionTransports(ctx.description) }, path: false } },
        },
      },
      else: { properties: { match: { properties: { channel: false } } } },
    },
    FaultRule: rule(
      { id: { type: 'string', pattern: '^f\\d+$' }, fired: integer(0, undefined, 'Times the rule fired') },
      ['id', 'match', 'action', 'fired'],
    ),
    FaultList: objectSchema({ rules: { type: 'array', items: schemaRef('FaultRule') } }),
    FaultsRemoved: objectSchema({ removed: COUNT }),
  };
}
