import type { IncomingMessage, ServerResponse } from 'node:http';
import { coreError, type RaceDaySettings } from '@racedata/core';
import {
  DAY_CHANNELS,
  deliveryOf,
  formatStartAt,
  localIso,
  raceDayError,
  raceDayLibrary,
  type DayPlayer,
  type RaceDay,
} from '@racedata/race-day/player';
import { decodeSegment } from './body-checks';
import type { OffsetClock } from './offset-clock';
import { parseRaceDayBody } from './race-day-params';
import { goTo, takeAction } from './race-day-action-routes';
import type { RaceDayState, RaceDaySummary, SchemaIndex } from './wire';

/** A simulator's side of the race day: the day (shared in `all`) and this simulator's player. */
export interface SimulatorRaceDay {
  readonly day: RaceDay;
  readonly player: DayPlayer;
}

export interface RaceDayRouteOptions {
  readonly raceDay: SimulatorRaceDay;
  readonly settings: RaceDaySettings;
  readonly clock: OffsetClock;
}

type Send = (res: ServerResponse, status: number, body: unknown, contentType?: string) => void;

/** GET /_sim/race-day: the plan as it stands on this simulator's clock, and how it plays. */
export function raceDayState({
  raceDay,
  clock,
}: Pick<RaceDayRouteOptions, 'raceDay' | 'clock'>): RaceDayState {
  const playing = raceDay.day.current;
  const now = raceDay.player.dayNow();
  if (!playing || now === undefined) {
    throw raceDayError('RACE_DAY_NOT_RUNNING', 'no race day is playing; POST /_sim/race-day starts one');
  }
  const { allowedActions, planView } = raceDayLibrary();
  const view = planView(playing.plan, now);
  return {
    ...view,
    // What a client (the console's race board) may press now: the same list a 409 names.
    meetings: view.meetings.map((m) => ({
      ...m,
      allowed: allowedActions(playing.plan, m.trackId, undefined, now),
      races: m.races.map((r) => ({ ...r, allowed: allowedActions(playing.plan, m.trackId, r.raceNr, now) })),
    })),
    play: {
      speed: playing.speed,
      at: formatStartAt(playing.request.at),
      startedAt: new Date(playing.anchorClock).toISOString(),
      dayStartedAt: localIso(playing.anchorDay),
      dayTime: localIso(now),
      clockTime: new Date(clock.now()).toISOString(),
      played: raceDay.player.played,
    },
  };
}

/** GET /_sim/state's `raceDay`. */
export function raceDaySummary(raceDay: SimulatorRaceDay | undefined): RaceDaySummary {
  const playing = raceDay?.day.current;
  const now = raceDay?.player.dayNow();
  if (!raceDay || !playing || now === undefined) return { on: false };
  return {
    on: true,
    date: playing.plan.date,
    seed: playing.plan.seed,
    speed: playing.speed,
    dayTime: localIso(now),
    played: raceDay.player.played,
  };
}

/** Each legacy channel and the JSON channels whose payload model its XML carries. */
const legacyToJson = (schemas: object) =>
  Object.fromEntries(
    DAY_CHANNELS.map((c) => [
      c,
      Object.keys(schemas).filter((name) => name.replace(/(Trot|Gallop)$/, '') === c),
    ]),
  );

export function schemaIndex(): SchemaIndex {
  const { PAYLOAD_SCHEMAS, SCHEMA_DIALECT } = raceDayLibrary();
  return {
    dialect: SCHEMA_DIALECT,
    channels: Object.entries(PAYLOAD_SCHEMAS).map(([channel, schema]) => ({
      channel,
      delivery: deliveryOf({
        channel: channel.replace(/(Trot|Gallop)$/, '') as (typeof DAY_CHANNELS)[number],
      }),
      title: schema.title ?? channel,
      href: `/_sim/schemas/${channel}`,
    })),
    legacy: {
      rule:
        'A legacy XML document carries the same fields as the JSON payload of its channel with the sport suffix: ' +
        'root element named after the channel with date, trackId, sport, raceNr and startNr; scalars as attributes; ' +
        'an object as a child element; a list as a wrapper element holding one element per item (docs/race-days.md).',
      channels: legacyToJson(PAYLOAD_SCHEMAS),
    },
  };
}

/**
 * The race-day routes: GET, POST and DELETE /_sim/race-day, POST /_sim/race-day/actions and
 * /_sim/race-day/goto, and the payload schemas at
 * GET /_sim/schemas and /_sim/schemas/{channel}. Answers true when it took the request.
 */
export async function raceDayRoutes(
  route: string,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  body: () => Promise<unknown>,
  send: Send,
  options: RaceDayRouteOptions | undefined,
): Promise<boolean> {
  if (route === 'GET /_sim/schemas') {
    send(res, 200, schemaIndex());
    return true;
  }
  if (route.startsWith('GET /_sim/schemas/')) {
    const channel = decodeSegment(path.slice('/_sim/schemas/'.length), 'the channel');
    const { PAYLOAD_SCHEMAS } = raceDayLibrary();
    const schema = Object.hasOwn(PAYLOAD_SCHEMAS, channel) ? PAYLOAD_SCHEMAS[channel] : undefined;
    if (!schema) {
      throw coreError(
        'NOT_FOUND',
        `no payload schema for "${channel.slice(0, 40)}"; schemas: ${Object.keys(PAYLOAD_SCHEMAS).join(', ')}`,
      );
    }
    send(res, 200, schema, 'application/schema+json');
    return true;
  }
  if (route === 'POST /_sim/race-day/actions' || route === 'POST /_sim/race-day/goto') {
    if (!options) throw coreError('NOT_FOUND', 'this simulator plays no race days');
    const input = await body();
    send(
      res,
      200,
      route.endsWith('/actions')
        ? takeAction(options.raceDay, input)
        : goTo(options.raceDay, options.clock, input),
    );
    return true;
  }
  if (!route.endsWith(' /_sim/race-day')) return false;
  if (!options) throw coreError('NOT_FOUND', 'this simulator plays no race days');
  const { raceDay, settings, clock } = options;
  switch (req.method) {
    case 'GET':
      send(res, 200, raceDayState(options));
      return true;
    case 'POST': {
      // Checked whole before anything changes: a bad body leaves the day playing as it was.
      const request = parseRaceDayBody(await body(), settings, clock.now());
      raceDay.day.start(request, clock.now());
      send(res, 200, raceDayState(options));
      return true;
    }
    case 'DELETE':
      send(res, 200, { stopped: raceDay.day.stop() });
      return true;
    default:
      return false;
  }
}
