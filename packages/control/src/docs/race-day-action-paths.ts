import {
  CONTROL_BODY_ERRORS,
  controlError,
  integer,
  jsonContent,
  type JsonSchema,
  objectSchema,
  type OpenApiPart,
  schemaRef,
} from '@racedata/core';
import { ACTION_SPECS, PHASES, RACE_MOMENTS, type ArgumentSpec } from '@racedata/race-day';
import { controlOperation } from './control-paths';

const json = (description: string, schema: object) => ({ description, content: jsonContent(schema) });
const TEXT: JsonSchema = { type: 'string' };
const LOCAL: JsonSchema = { type: 'string', description: 'Local Swedish time with its offset' };

const ARGUMENT: Record<ArgumentSpec['type'], JsonSchema> = {
  integer: integer(1, 99),
  number: { type: 'number', minimum: 0, maximum: 180, description: 'more than 0' },
  string: { type: 'string', minLength: 1, maxLength: 200 },
  date: { type: 'string', format: 'date' },
  time: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' },
  'integer[]': { type: 'array', items: integer(1, 99), minItems: 2 },
  placings: {
    type: 'array',
    minItems: 1,
    items: objectSchema({ startNr: integer(1, 99), place: integer(1, 99) }),
  },
};

/** One schema per action, from the table the server checks bodies with (actions/action-types.ts). */
function actionSchemas(): JsonSchema[] {
  return Object.values(ACTION_SPECS).map((spec) =>
    objectSchema(
      {
        action: { const: spec.name },
        trackId: integer(1),
        raceNr: integer(1, 99),
        ...Object.fromEntries(
          spec.args.map((a) => [a.name, { ...ARGUMENT[a.type], description: a.summary }]),
        ),
      },
      [
        'action',
        'trackId',
        ...(spec.level === 'race' ? ['raceNr'] : []),
        ...spec.args.filter((a) => a.required).map((a) => a.name),
      ],
      { title: spec.name, description: `${spec.summary}. Allowed ${spec.when}.` },
    ),
  );
}

const MESSAGE = objectSchema(
  {
    channel: { ...TEXT, description: 'The JSON channel (ScratchingsTrot)' },
    legacyChannel: { ...TEXT, description: "The legacy simulator's channel (Scratchings)" },
    delivery: { enum: ['durable', 'transient'] },
    date: { type: 'string', format: 'date' },
    trackId: integer(1),
    raceNr: integer(1),
    startNr: integer(1),
    at: LOCAL,
    payload: { type: 'object', description: "The channel's payload (GET /_sim/schemas/{channel})" },
  },
  ['channel', 'legacyChannel', 'delivery', 'date', 'trackId', 'at', 'payload'],
);

const ALLOWED = {
  type: 'array',
  items: { enum: Object.keys(ACTION_SPECS) },
  description: 'The actions allowed now on the race and its meeting',
} as const;

export const RACE_DAY_ACTION_SCHEMAS: Record<string, JsonSchema> = {
  RaceDayAction: { oneOf: actionSchemas(), description: 'One action in the domain’s words' },
  RaceDayActionResult: objectSchema(
    {
      action: { enum: Object.keys(ACTION_SPECS) },
      trackId: integer(1),
      raceNr: integer(1),
      phase: { enum: PHASES, description: "The named race's phase after the action" },
      races: {
        type: 'array',
        items: objectSchema({ raceNr: integer(1), phase: { enum: PHASES } }),
        description: 'Every race of the meeting with its phase after the action',
      },
      dayTime: LOCAL,
      emitted: {
        type: 'array',
        items: MESSAGE,
        description: 'What the action sent at once on this simulator, in order',
      },
      allowed: ALLOWED,
    },
    ['action', 'trackId', 'races', 'dayTime', 'emitted', 'allowed'],
  ),
  RaceDayGotoRequest: objectSchema(
    {
      trackId: integer(1),
      raceNr: integer(1, 99),
      phase: {
        enum: RACE_MOMENTS,
        description:
          'Where that phase begins: parade (its countdown), countdown (the parade), start or running, finish or finished, result',
      },
      offsetMs: {
        type: 'integer',
        minimum: -86_400_000,
        maximum: 86_400_000,
        description: 'From that moment, in ms of the day',
      },
    },
    ['trackId', 'raceNr', 'phase'],
  ),
  RaceDayGotoResult: objectSchema({
    trackId: integer(1),
    raceNr: integer(1),
    phase: { enum: PHASES },
    target: LOCAL,
    dayTime: LOCAL,
    advancedMs: integer(0),
    played: integer(0),
    allowed: ALLOWED,
  }),
};

const BAD_ACTION = json(
  'The body is malformed, an action, meeting, race or start is unknown (the message lists what exists), an argument has the wrong type or does not fit the race, or no day is playing; nothing is emitted and the plan is unchanged',
  controlError([
    'VALIDATION_FAILED',
    'MALFORMED_JSON',
    'RACE_DAY_INVALID',
    'RACE_DAY_NO_SUCH_RACE',
    'RACE_DAY_NOT_PLAYING',
  ]),
);

/** POST /_sim/race-day/actions and /_sim/race-day/goto. */
export function raceDayActionPaths(): OpenApiPart {
  return {
    paths: {
      '/_sim/race-day/actions': {
        post: controlOperation({
          operationId: 'raceDayAction',
          summary:
            'Make something happen in the race day now: scratch, delay, dead heat, correct a result, cancel…',
          description:
            'Applied at the simulator’s current time with the operations the generated edge cases use, so the messages are those the same case would produce, on every transport, journalled with source race-day and the action’s name; what follows (splits, results, start lists) follows from it. In `racedata-sim all` both simulators take it.',
          requestBody: { required: true, content: jsonContent(schemaRef('RaceDayAction')) },
          responses: {
            '200': json('What the action emitted and the phases after it', schemaRef('RaceDayActionResult')),
            ...CONTROL_BODY_ERRORS,
            '400': BAD_ACTION,
            '409': json(
              "The race's (or meeting's) phase forbids the action; the message names the phase and when it is allowed",
              controlError(['RACE_DAY_PHASE']),
            ),
          },
        }),
      },
      '/_sim/race-day/goto': {
        post: controlOperation({
          operationId: 'raceDayGoto',
          summary:
            'Move this simulator’s clock forward to a moment of a race; everything in between plays in order',
          requestBody: { required: true, content: jsonContent(schemaRef('RaceDayGotoRequest')) },
          responses: {
            '200': json('Where the day is now', schemaRef('RaceDayGotoResult')),
            ...CONTROL_BODY_ERRORS,
            '400': json(
              'The body is malformed, the race is unknown (the message lists what exists), or no day is playing',
              controlError([
                'VALIDATION_FAILED',
                'MALFORMED_JSON',
                'RACE_DAY_INVALID',
                'RACE_DAY_NO_SUCH_RACE',
                'RACE_DAY_NOT_PLAYING',
              ]),
            ),
            '409': json(
              'The moment is behind the day’s now (the clock only goes forward: regenerate the day), or the race does not run',
              controlError(['RACE_DAY_PHASE']),
            ),
          },
        }),
      },
    },
    components: { schemas: RACE_DAY_ACTION_SCHEMAS },
  };
}
