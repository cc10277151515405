import type { JsonSchema } from '@racedata/core';
import type { Sport } from '../model/types';
import { DAY_CHANNELS, type DayChannel, sportSuffix } from '../timeline/messages';
import {
  array,
  COUNT,
  DATE,
  KM_TIME,
  LOCAL_TIME,
  METRES,
  object,
  POSITIVE,
  RACE_TIME,
  SECONDS,
  SEX,
  START_METHOD,
  START_NR,
  SURFACE,
  TEXT,
} from './schema-parts';

const rider = (sport: Sport) => (sport === 'trot' ? 'driver' : 'jockey');
const trotOnly = <T>(sport: Sport, value: T): Record<string, T> =>
  sport === 'trot' ? { startMethod: value } : {};

function raceDay(sport: Sport): JsonSchema {
  const race = object(
    {
      raceNr: POSITIVE,
      name: TEXT,
      startTime: LOCAL_TIME,
      distance: METRES,
      ...trotOnly(sport, START_METHOD),
      surface: SURFACE,
      breed: sport === 'trot' ? { enum: ['warmblood', 'coldblood'] } : { const: 'thoroughbred' },
      terms: { type: 'string', description: 'The race terms; a ridden trot race says Monté. here only' },
      starters: { ...COUNT, description: 'Starts in the start list, scratched ones included' },
      firstPrizeSek: COUNT,
      status: { enum: ['scheduled', 'cancelled'] },
    },
    [],
  );
  return object(
    {
      track: TEXT,
      sport: { const: sport },
      meetingType: { enum: ['lunch', 'afternoon', 'evening', 'day'] },
      firstStart: LOCAL_TIME,
      status: { enum: ['scheduled', 'cancelled', 'abandoned', 'postponed'] },
      revision: { ...POSITIVE, description: '1 for the morning programme, one more per change' },
      reason: TEXT,
      postponedTo: object({ date: DATE, firstStart: LOCAL_TIME }),
      postponedFrom: DATE,
      abandonedAfterRace: POSITIVE,
      races: array(race),
    },
    ['reason', 'postponedTo', 'postponedFrom', 'abandonedAfterRace'],
  );
}

function startList(sport: Sport): JsonSchema {
  const r = rider(sport);
  const starter = object(
    {
      startNr: START_NR,
      postPosition: { ...POSITIVE, description: 'Moves after scratchings; not the start number' },
      horse: TEXT,
      age: { type: 'integer', minimum: 2, maximum: 20 },
      sex: SEX,
      [r]: TEXT,
      [r === 'driver' ? 'originalDriver' : 'originalJockey']: {
        ...TEXT,
        description: 'Set after a change: who was named first',
      },
      trainer: TEXT,
      owner: TEXT,
      breeder: TEXT,
      ...(sport === 'gallop' ? { weightKg: { type: 'number', minimum: 40, maximum: 75 } } : {}),
      ...(sport === 'trot' ? { handicapMeters: { enum: [0, 20, 40] }, distance: METRES } : {}),
      odds: { type: 'number', minimum: 1 },
      status: { enum: ['starting', 'scratched'] },
    },
    [r === 'driver' ? 'originalDriver' : 'originalJockey', 'handicapMeters', 'distance'],
  );
  return object(
    {
      track: TEXT,
      name: TEXT,
      startTime: LOCAL_TIME,
      distance: METRES,
      ...trotOnly(sport, START_METHOD),
      surface: SURFACE,
      terms: { type: 'string' },
      revision: POSITIVE,
      starters: array(starter),
    },
    [],
  );
}

const scratchings = object(
  {
    startNr: START_NR,
    horse: TEXT,
    reason: TEXT,
    scratchedAt: LOCAL_TIME,
    afterParade: { type: 'boolean', description: 'Scratched after the parade: late' },
    stable: { ...TEXT, description: 'Set when several horses of one stable go at once' },
    postPositions: array(
      object({ startNr: START_NR, postPosition: POSITIVE }),
      'The remaining starts and their posts now',
    ),
  },
  ['stable'],
);

function result(sport: Sport): JsonSchema {
  const r = rider(sport);
  const placing = object(
    {
      place: POSITIVE,
      startNr: START_NR,
      postPosition: POSITIVE,
      horse: TEXT,
      [r]: TEXT,
      trainer: TEXT,
      ...(sport === 'trot' ? { kmTime: KM_TIME } : { time: RACE_TIME, marginLengths: SECONDS }),
      margin: {
        ...TEXT,
        description: 'To the runner just ahead at the line: nos, hals, 1 längd, dött lopp...',
      },
      distance: METRES,
      odds: { type: 'number', minimum: 1 },
      prizeSek: COUNT,
      demoted: { const: true },
    },
    ['margin', 'distance', 'prizeSek', 'demoted'],
  );
  const out = object(
    {
      startNr: START_NR,
      horse: TEXT,
      reason: TEXT,
      atMeters: METRES,
      afterResult: { const: true },
    },
    ['atMeters', 'afterResult'],
  );
  return object(
    {
      name: TEXT,
      distance: METRES,
      ...trotOnly(sport, START_METHOD),
      surface: SURFACE,
      scheduledStartTime: LOCAL_TIME,
      startTime: { ...LOCAL_TIME, description: 'The actual start' },
      status: { enum: ['preliminary', 'corrected'] },
      revision: POSITIVE,
      correction: object({
        kind: { enum: ['correction', 'disqualification', 'demotion'] },
        reason: TEXT,
        replacesRevision: POSITIVE,
      }),
      photoFinish: { type: 'boolean' },
      deadHeat: { type: 'boolean', description: 'Two or more runners share a place' },
      placings: array(placing, 'Places 1..n; a shared place leaves the next one empty'),
      winnerSeconds: SECONDS,
      disqualified: array(out),
      nonFinishers: array(object({ startNr: START_NR, horse: TEXT, reason: TEXT, atMeters: METRES })),
      demotions: array(object({ startNr: START_NR, fromPlace: POSITIVE, toPlace: POSITIVE, reason: TEXT })),
      scratched: array(object({ startNr: START_NR, horse: TEXT, reason: TEXT })),
    },
    ['correction'],
  );
}

const timeToStart = object({
  secondsToStart: { ...COUNT, description: 'Down to 0 at the actual start; runs again after a recall' },
  startTime: { ...LOCAL_TIME, description: 'The start now expected' },
  scheduledStartTime: LOCAL_TIME,
  secondsToParade: COUNT,
  recalls: { ...COUNT, description: 'False starts so far' },
});

const timeToDef = object({
  secondsToParade: COUNT,
  paradeTime: LOCAL_TIME,
  secondsToStart: COUNT,
  startTime: LOCAL_TIME,
});

const position = (withHorse: boolean) =>
  object({
    position: POSITIVE,
    startNr: START_NR,
    ...(withHorse ? { horse: TEXT } : {}),
    behindSeconds: SECONDS,
  });

function splitTimes(sport: Sport): JsonSchema {
  return object({
    distance: METRES,
    metersToGo: METRES,
    elapsedSeconds: SECONDS,
    ...(sport === 'trot' ? { kmTime: KM_TIME } : { sectionalSeconds: SECONDS }),
    positions: array(position(false)),
  });
}

const prelDisqualified = object({
  startNr: START_NR,
  horse: TEXT,
  driver: TEXT,
  distance: METRES,
  reason: TEXT,
});

const last500 = object({
  metersToGo: { enum: [500, 400, 300, 200, 100, 0] },
  positions: array(position(true)),
});

function payloadOf(channel: DayChannel, sport: Sport): JsonSchema | undefined {
  switch (channel) {
    case 'RaceDay':
      return raceDay(sport);
    case 'StartList':
      return startList(sport);
    case 'Scratchings':
      return scratchings;
    case 'Result':
      return result(sport);
    case 'TimeToStart':
      return timeToStart;
    case 'TimeToDef':
      return sport === 'trot' ? timeToDef : undefined;
    case 'SplitTimes':
      return splitTimes(sport);
    case 'PrelDisqualifiedHorses':
      return sport === 'trot' ? prelDisqualified : undefined;
    case 'Last500Meters':
      return last500;
  }
}

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export interface PayloadSchema extends JsonSchema {
  readonly $schema: string;
  readonly $id: string;
}

/** The payload schema of each JSON channel, by channel name (RaceDayTrot...). */
export const PAYLOAD_SCHEMAS: Readonly<Record<string, PayloadSchema>> = Object.fromEntries(
  DAY_CHANNELS.flatMap((channel) =>
    (['trot', 'gallop'] as const).flatMap((sport) => {
      const schema = payloadOf(channel, sport);
      const name = channel + sportSuffix(sport);
      return schema
        ? [
            [
              name,
              {
                $schema: SCHEMA_DIALECT,
                $id: `urn:racedata-sim:payload:${name}`,
                title: `${name} payload`,
                description: `The payload of a ${name} event in this simulator's race-day model (the interface shows no payload structure).`,
                ...schema,
              },
            ],
          ]
        : [];
    }),
  ),
);
