import {
  CONTROL_ACCESS_ERRORS,
  CONTROL_BODY_ERRORS,
  controlError,
  COUNT,
  type DocsContext,
  integer,
  journalTransports,
  jsonContent,
  type JsonSchema,
  objectSchema,
  type OpenApiPart,
  type Operation,
  type Parameter,
  responseRef,
  schemaRef,
  type SecurityRequirement,
} from '@racedata/core';
import {
  JOURNAL_DEFAULT_LIMIT,
  JOURNAL_MAX_WAIT_MS,
  MAX_ADVANCE_MS,
  RESET_DEFAULTS,
} from '../control-params';
import { MAX_CLOCK_OFFSET_MS } from '../offset-clock';
import { journalSchemas } from './journal-schemas';
import { JOURNAL_KINDS } from '../wire';

/** What only the simulator knows about its state and its reset. */
export interface ControlStateShape {
  /** Its own fields of GET /_sim/state (`store` or `queues`). */
  readonly stateFields: Readonly<Record<string, JsonSchema>>;
  /** The counts its part of POST /_sim/reset answers in `cleared`. */
  readonly clearedCounts: readonly string[];
}

/** Open unless CONTROL_TOKEN is set; then the bearer is that token. */
export const CONTROL_SECURITY: readonly SecurityRequirement[] = [{}, { controlToken: [] }];

export function controlOperation(op: Operation): Operation {
  return { tags: ['control'], security: CONTROL_SECURITY, ...op };
}

const once = 'Given at most once; an unknown parameter is refused (400).';

function query(name: string, schema: JsonSchema, description: string): Parameter {
  return { name, in: 'query', required: false, description: `${description} ${once}`, schema };
}

function journalFilter(ctx: DocsContext): Parameter[] {
  return [
    query(
      'user',
      { enum: ctx.users.users.map((u) => u.key) },
      'Only deliveries to (and closes of) this user.',
    ),
    query(
      'transport',
      { enum: journalTransports(ctx.description) },
      'Only deliveries over (and closes of) this transport.',
    ),
    query('channel', { type: 'string', minLength: 1 }, 'Only entries of this channel.'),
    query('kind', { enum: JOURNAL_KINDS }, 'Only entries of this kind.'),
    query('since', integer(0, 999_999_999_999_999), 'Only entries with a larger seq.'),
  ];
}

function stateSchema(ctx: DocsContext, shape: ControlStateShape): JsonSchema {
  const userKeys = ctx.users.users.map((u) => u.key);
  const properties: Record<string, JsonSchema> = {
    simulator: { const: ctx.kind },
    time: { type: 'string', format: 'date-time', description: "The simulator's clock" },
    clockOffsetMs: integer(
      0,
      MAX_CLOCK_OFFSET_MS,
      'How far POST /_sim/clock/advance has moved the clock since the start or the last reset',
    ),
    users: objectSchema(Object.fromEntries(userKeys.map((key) => [key, schemaRef('UserState')]))),
    ...shape.stateFields,
    replay: objectSchema({
      on: { type: 'boolean' },
      mode: { enum: ['interval', 'timed', null], description: 'null when replay is off' },
      position: integer(0, undefined, 'Messages of the current pass replayed so far'),
      total: integer(0, undefined, 'Messages in one pass; 0 without a replay'),
      loops: integer(0, undefined, 'Passes completed and restarted'),
      sent: integer(0, undefined, 'Messages replayed over all passes'),
    }),
    journal: objectSchema({
      entries: COUNT,
      max: integer(0),
      lastSeq: COUNT,
      waiters: integer(
        0,
        undefined,
        'GET /_sim/journal/wait requests held now (at most JOURNAL_WAITERS_MAX)',
      ),
    }),
    transports: {
      type: 'array',
      description: "The simulator's customer transports, as its description declares them",
      items: schemaRef('TransportInfo'),
    },
    raceDay: schemaRef('RaceDaySummary'),
  };
  // Only a certify simulator has it; every other field is always there.
  const required = Object.keys(properties);
  return objectSchema({ ...properties, certification: schemaRef('CertificationSummary') }, required);
}

/** One entry of GET /_sim/state's `transports` (description.ts TransportInfo). */
const TRANSPORT_INFO = objectSchema(
  {
    name: { type: 'string', description: 'As fault rules and journal entries name it' },
    kind: {
      enum: ['request', 'poll', 'session'],
      description: 'session: a WebSocket that POST /_sim/connections/close and drop rules act on',
    },
    paths: {
      type: 'array',
      items: { type: 'string', pattern: '^/' },
      description: 'Its routes; `{name}` stands for one path segment',
    },
    faultTarget: { type: 'boolean', description: 'A fault rule may name it in `match.transport`' },
    journalled: { type: 'boolean', description: 'Deliveries over it are journalled under its name' },
    source: { type: 'string', description: 'The journal `source` of messages handed in over it' },
  },
  ['name', 'kind', 'paths', 'faultTarget', 'journalled'],
);

const RESET_NOTES: Readonly<Record<string, string>> = {
  events: 'Empty the durable event store (JSON simulator); held polls are answered 204',
  queues: 'Empty the listen queues (legacy simulator); held polls are answered 204',
  journal: 'Empty the journal (seq numbers go on)',
  faults: 'Remove the fault rules and lift token expiries',
  closeSockets: 'Close every WebSocket session with 1000',
  clock: 'Undo POST /_sim/clock/advance: back to the real time (timers keep the time they had left)',
};

function resetSchemas(shape: ControlStateShape): Record<string, JsonSchema> {
  // The request's options and defaults are read from the parser's own table.
  const options = Object.fromEntries(
    Object.entries(RESET_DEFAULTS).map(([key, value]): [string, JsonSchema] =>
      typeof value === 'boolean'
        ? [
            key,
            { type: 'boolean', default: value, ...(RESET_NOTES[key] && { description: RESET_NOTES[key] }) },
          ]
        : [
            key,
            {
              enum: ['restart', 'continue'],
              default: value,
              description: 'restart: the next durable event is eventId 1 again',
            },
          ],
    ),
  );
  // journalEntries, faultRules, tokenExpiries and the offset are the control plane's own.
  const counts = [...shape.clearedCounts, 'journalEntries', 'faultRules', 'tokenExpiries', 'clockOffsetMs'];
  return {
    ResetRequest: objectSchema(options, [], {
      description: 'Every option is optional; no body takes the defaults',
    }),
    ResetResult: objectSchema({
      cleared: objectSchema(Object.fromEntries(counts.map((name) => [name, COUNT]))),
      eventIds: { enum: ['restart', 'continue'] },
    }),
  };
}

const openJson = (description: string, schema: JsonSchema) => ({ description, content: jsonContent(schema) });

/** GET /_sim/state, POST /_sim/reset, the journal and its wait, POST /_sim/clock/advance, the documents. */
export function controlPaths(ctx: DocsContext, shape: ControlStateShape): OpenApiPart {
  const max = ctx.settings.journalMax;
  const unauthorized = CONTROL_ACCESS_ERRORS;
  return {
    paths: {
      '/_sim/state': {
        get: controlOperation({
          operationId: 'getState',
          summary: 'Users, connections, held polls, store or queues, replay and journal at a glance',
          responses: { '200': openJson('The state', schemaRef('SimulatorState')), ...unauthorized },
        }),
      },
      '/_sim/reset': {
        post: controlOperation({
          operationId: 'reset',
          summary: 'Clear what the options name; held polls are answered 204',
          requestBody: { required: false, content: jsonContent(schemaRef('ResetRequest')) },
          responses: {
            '200': openJson('What was cleared', schemaRef('ResetResult')),
            ...CONTROL_BODY_ERRORS,
          },
        }),
      },
      '/_sim/journal': {
        get: controlOperation({
          operationId: 'getJournal',
          summary: 'Journal entries matching every filter, oldest first',
          parameters: [
            ...journalFilter(ctx),
            query(
              'limit',
              { ...integer(1, max), default: Math.min(JOURNAL_DEFAULT_LIMIT, max) },
              'Most entries.',
            ),
          ],
          responses: {
            '200': openJson('A page of entries', schemaRef('JournalPage')),
            '400': responseRef('ControlBadRequest'),
            ...unauthorized,
          },
        }),
      },
      '/_sim/journal/wait': {
        get: controlOperation({
          operationId: 'waitJournal',
          summary: 'Answers once `count` matching entries exist, or at the timeout with what it saw',
          parameters: [
            ...journalFilter(ctx),
            query('count', { ...integer(1, max), default: 1 }, 'Entries to wait for.'),
            query('timeout', { ...integer(0, JOURNAL_MAX_WAIT_MS), default: 30_000 }, 'Milliseconds.'),
          ],
          responses: {
            '200': openJson('`count` matching entries exist', schemaRef('JournalPage')),
            '400': responseRef('ControlBadRequest'),
            ...unauthorized,
            '408': openJson('The timeout passed first; the entries seen so far', schemaRef('JournalPage')),
            '429': openJson(
              `${ctx.settings.journalWaitersMax} waits are held already (JOURNAL_WAITERS_MAX)`,
              controlError(['JOURNAL_WAITERS_LIMIT']),
            ),
          },
        }),
      },
      '/_sim/clock/advance': {
        post: controlOperation({
          operationId: 'advanceClock',
          summary:
            "Move the simulator's clock forward; timers now due fire (token expiry, retention, timeouts)",
          description: `At most ${MAX_CLOCK_OFFSET_MS} ms (100 years) ahead of the real time in all: an advance past that is refused (400) and moves nothing; POST /_sim/reset restores the real time.`,
          requestBody: {
            required: true,
            content: jsonContent(objectSchema({ ms: integer(0, MAX_ADVANCE_MS) })),
          },
          responses: {
            '200': openJson(
              'The clock after the move',
              objectSchema({
                advancedMs: COUNT,
                clockOffsetMs: integer(0, MAX_CLOCK_OFFSET_MS),
                time: { type: 'string', format: 'date-time' },
                timersFired: COUNT,
              }),
            ),
            ...CONTROL_BODY_ERRORS,
          },
        }),
      },
      '/_sim/openapi.json': {
        get: controlOperation({
          operationId: 'getOpenApi',
          summary: 'This document',
          responses: {
            '200': openJson('OpenAPI 3.1 document of every HTTP endpoint of this simulator', {
              type: 'object',
              required: ['openapi', 'info', 'paths'],
              properties: { openapi: { const: '3.1.0' } },
            }),
            ...unauthorized,
          },
        }),
      },
      '/_sim/asyncapi.json': {
        get: controlOperation({
          operationId: 'getAsyncApi',
          summary: "AsyncAPI 3.0 document of this simulator's WebSocket endpoint",
          responses: {
            '200': openJson('AsyncAPI 3.0 document', {
              type: 'object',
              required: ['asyncapi', 'info'],
              properties: { asyncapi: { const: '3.0.0' } },
            }),
            ...unauthorized,
          },
        }),
      },
    },
    components: {
      schemas: {
        UserState: objectSchema({
          sockets: integer(0, undefined, "Open WebSocket sessions of the simulator's session transport"),
          heldPolls: integer(0, undefined, 'Long polls held now'),
          queueDepth: integer(
            0,
            undefined,
            'Legacy messages waiting for a poll; always 0 on the JSON simulator',
          ),
          unconfirmed: integer(
            0,
            undefined,
            'Legacy messages written to a listen answer and not yet shown read by the client; always 0 on the JSON simulator',
          ),
        }),
        SimulatorState: stateSchema(ctx, shape),
        TransportInfo: TRANSPORT_INFO,
        ...journalSchemas(ctx),
        ...resetSchemas(shape),
      },
    },
  };
}
