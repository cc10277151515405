import { integer, type JsonSchema, objectSchema } from '@racedata/core';
import { ACTION_NAMES, EDGE_CASE_IDS, MAX_SEED, MAX_SPEED, PHASES } from '@racedata/race-day';

const LOCAL: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$',
  description: 'Local Swedish time with its offset',
};
const DATE: JsonSchema = { type: 'string', format: 'date' };
const TEXT: JsonSchema = { type: 'string' };

const ALLOWED: JsonSchema = {
  type: 'array',
  items: { enum: ACTION_NAMES },
  description:
    "GET /_sim/race-day only: the actions POST /_sim/race-day/actions takes now (on a race: its own and its meeting's)",
};

const STARTER = objectSchema(
  {
    startNr: integer(1),
    postPosition: integer(1, undefined, 'Moves in after scratchings; not the start number'),
    horse: TEXT,
    driver: { ...TEXT, description: 'Trot' },
    jockey: { ...TEXT, description: 'Gallop' },
    trainer: TEXT,
    status: {
      enum: ['running', 'scratched', 'disqualified', 'non-finisher', 'placed'],
      description: 'running: declared or in the race, not yet placed',
    },
    place: integer(1, undefined, 'Once the result is out'),
  },
  ['startNr', 'postPosition', 'horse', 'trainer', 'status'],
);

const RACE = objectSchema(
  {
    raceNr: integer(1),
    name: TEXT,
    distance: integer(1),
    startMethod: { enum: ['auto', 'volte'] },
    surface: { enum: ['dirt', 'turf'] },
    breed: { enum: ['warmblood', 'coldblood', 'thoroughbred'] },
    scheduledStart: LOCAL,
    actualStart: {
      ...LOCAL,
      description:
        'The start the plan has: 0-6 minutes after the scheduled one, later after a delay or a recall',
    },
    paradeAt: LOCAL,
    resultAt: {
      ...LOCAL,
      description: 'When the preliminary result is (or was) published; absent for a race called off',
    },
    phase: { enum: PHASES },
    starters: { type: 'array', items: STARTER },
    allowed: ALLOWED,
  },
  [
    'raceNr',
    'name',
    'distance',
    'surface',
    'breed',
    'scheduledStart',
    'actualStart',
    'paradeAt',
    'phase',
    'starters',
  ],
);

const MEETING = objectSchema(
  {
    trackId: integer(
      1,
      undefined,
      "This simulator's track id: 901-933 trot, 951-953 gallop (docs/race-days.md)",
    ),
    track: TEXT,
    sport: { enum: ['trot', 'gallop'] },
    type: { enum: ['lunch', 'afternoon', 'evening', 'day'] },
    date: DATE,
    status: { enum: ['scheduled', 'cancelled', 'abandoned', 'postponed'] },
    programmeAt: LOCAL,
    firstStart: LOCAL,
    reason: TEXT,
    postponedTo: objectSchema({ date: DATE, firstStart: LOCAL }),
    abandonedAfterRace: integer(1),
    races: { type: 'array', items: RACE },
    allowed: ALLOWED,
  },
  ['trackId', 'track', 'sport', 'type', 'date', 'status', 'programmeAt', 'firstStart', 'races'],
);

const PLACEMENT = objectSchema(
  { id: { enum: EDGE_CASE_IDS }, trackId: integer(1), raceNr: integer(1), startNr: integer(1) },
  ['id', 'trackId'],
);

const PLAY = objectSchema({
  speed: { type: 'number', minimum: 0, maximum: MAX_SPEED },
  at: { type: 'string', description: 'now, next-race or HH:MM' },
  startedAt: { type: 'string', format: 'date-time', description: "The simulator's clock when play started" },
  dayStartedAt: LOCAL,
  dayTime: { ...LOCAL, description: "The day's time now on this simulator's clock" },
  clockTime: { type: 'string', format: 'date-time' },
  played: integer(0, undefined, 'Messages handed to the simulator: the history, then each one played'),
});

/** The plan as it stands (plan.json of `racedata-sim race-day` has this shape without `play`). */
const PLAN_FIELDS: Record<string, JsonSchema> = {
  date: DATE,
  seed: integer(0, MAX_SEED),
  timeZone: { const: 'Europe/Stockholm' },
  options: objectSchema({ meetings: TEXT, edgeCases: TEXT }),
  asOf: { ...LOCAL, description: 'The day time phases and statuses are taken at' },
  meetings: { type: 'array', items: MEETING },
  edgeCases: { type: 'array', items: PLACEMENT, description: 'Where each edge case sits' },
};

export const RACE_DAY_SCHEMAS: Record<string, JsonSchema> = {
  RaceDayState: objectSchema({ ...PLAN_FIELDS, play: PLAY }),
  RaceDayRequest: objectSchema(
    {
      date: {
        type: 'string',
        description: 'today or YYYY-MM-DD; default: RACE_DAY, else today (the date in Sweden)',
      },
      seed: { ...integer(0, MAX_SEED), description: "Default: RACE_DAY_SEED, else the date's digits" },
      meetings: {
        anyOf: [
          { type: 'string', pattern: '^(auto|(trot|gallop):\\d+(,(trot|gallop):\\d+)?)$' },
          objectSchema({ trot: integer(0, 4), gallop: integer(0, 1) }, []),
        ],
        description: 'auto (the calendar), trot:N,gallop:N or {trot, gallop}; default RACE_DAY_MEETINGS',
      },
      edgeCases: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description: `default, all, none, or ids each id[@trackId[:raceNr]]; known ids: ${EDGE_CASE_IDS.join(', ')}`,
      },
      speed: {
        type: 'number',
        minimum: 0,
        maximum: MAX_SPEED,
        description: 'Above 0; 1 is real time, 60 an hour a minute',
      },
      at: { type: 'string', pattern: '^(now|next-race|([01]\\d|2[0-3]):[0-5]\\d)$' },
    },
    [],
    { description: 'Every field is optional; a missing one takes the simulator’s race-day setting' },
  ),
  RaceDaySummary: {
    type: 'object',
    description: 'on: false when no race day plays',
    required: ['on'],
    properties: {
      on: { type: 'boolean' },
      date: DATE,
      seed: integer(0, MAX_SEED),
      speed: { type: 'number' },
      dayTime: LOCAL,
      played: integer(0),
    },
    additionalProperties: false,
  },
  SchemaIndex: objectSchema({
    dialect: { const: 'https://json-schema.org/draft/2020-12/schema' },
    channels: {
      type: 'array',
      items: objectSchema({
        channel: TEXT,
        delivery: { enum: ['durable', 'transient'] },
        title: TEXT,
        href: { type: 'string', format: 'uri-reference' },
      }),
    },
    legacy: objectSchema({
      rule: TEXT,
      channels: { type: 'object', additionalProperties: { type: 'array', items: TEXT } },
    }),
  }),
};
