import {
  deliveryOf,
  localIso,
  raceDayError,
  raceDayLibrary,
  raceMoment,
  type DayMessage,
  type PlayingDay,
} from '@racedata/race-day/player';
import type { OffsetClock } from './offset-clock';
import type { SimulatorRaceDay } from './race-day-routes';
import { parseGotoBody } from './race-day-goto-params';
import type { RaceDayActionResult, RaceDayGotoResult, RaceDayMessage } from './wire';

interface Playing {
  readonly playing: PlayingDay;
  readonly now: number;
}

/** The day and its time now, or a 400: an action or a go-to needs a day playing. */
function playingNow(raceDay: SimulatorRaceDay, what: string): Playing {
  const playing = raceDay.day.current;
  const now = raceDay.player.dayNow();
  if (!playing || now === undefined) {
    throw raceDayError(
      'RACE_DAY_NOT_PLAYING',
      `${what} needs a race day playing; POST /_sim/race-day starts one`,
    );
  }
  return { playing, now };
}

/** A message as an action's answer lists it: the JSON event, its delivery and its day time. */
export function messageView(m: DayMessage): RaceDayMessage {
  const event = raceDayLibrary().jsonEvent(m);
  return {
    channel: event.channel,
    legacyChannel: m.channel,
    delivery: deliveryOf(m),
    date: m.date,
    trackId: m.trackId,
    ...(m.raceNr !== undefined && { raceNr: m.raceNr }),
    ...(m.startNr !== undefined && { startNr: m.startNr }),
    at: localIso(m.at),
    payload: m.payload,
  };
}

/**
 * POST /_sim/race-day/actions: the action, checked whole (400 naming what is wrong, 409 naming
 * the phase), applied at this simulator's now. Both simulators of the process take it; the answer
 * lists what this one emitted at once and the race's phase after it.
 */
export function takeAction(raceDay: SimulatorRaceDay, body: unknown): RaceDayActionResult {
  const { allowedActions, applyAction, findMeeting, findRace, parseAction, phaseOf } = raceDayLibrary();
  const action = parseAction(body);
  const { playing } = playingNow(raceDay, `action ${action.action}`);
  // Names what the day lacks (400) before anything is played.
  findMeeting(playing.plan, action.trackId);
  if (action.raceNr !== undefined) findRace(playing.plan, { trackId: action.trackId, raceNr: action.raceNr });
  const {
    day: after,
    at,
    emitted: made,
  } = raceDay.day.act(action.action, (plan, when) => applyAction(plan, action, when));
  const emitted = made.map(messageView);
  const meeting = findMeeting(after.plan, action.trackId);
  return {
    action: action.action,
    trackId: action.trackId,
    ...(action.raceNr !== undefined && {
      raceNr: action.raceNr,
      phase: phaseOf(after.plan, { trackId: action.trackId, raceNr: action.raceNr }, at),
    }),
    races: meeting.races.map((r) => ({
      raceNr: r.raceNr,
      phase: phaseOf(after.plan, { trackId: action.trackId, raceNr: r.raceNr }, at),
    })),
    dayTime: localIso(at),
    emitted,
    allowed: allowedActions(after.plan, action.trackId, action.raceNr, at),
  };
}

/**
 * POST /_sim/race-day/goto: moves this simulator's clock forward to the moment, so everything in
 * between is played in order. Backwards is a 409: the day cannot be unplayed.
 */
export function goTo(raceDay: SimulatorRaceDay, clock: OffsetClock, body: unknown): RaceDayGotoResult {
  const { allowedActions, findRace, phaseOf } = raceDayLibrary();
  const target = parseGotoBody(body);
  const { playing, now } = playingNow(raceDay, 'goto');
  const { meeting, race } = findRace(playing.plan, target);
  const moment = raceMoment(meeting, race, target.phase);
  if (moment === undefined) {
    throw raceDayError(
      'RACE_DAY_PHASE',
      `goto: race ${race.raceNr} at track ${meeting.trackId} does not run (it is called off); it has no ${target.phase}`,
    );
  }
  const at = moment + (target.offsetMs ?? 0);
  if (at < now) {
    throw raceDayError(
      'RACE_DAY_PHASE',
      `goto: ${target.phase}${target.offsetMs ? ` ${target.offsetMs > 0 ? '+' : ''}${target.offsetMs} ms` : ''} of race ${race.raceNr} at track ${meeting.trackId} is ${localIso(at)}, before the day's now ${localIso(now)}; the clock only goes forward: regenerate the day (POST /_sim/race-day with "at": "HH:MM" before it) to see it again`,
    );
  }
  const played = raceDay.player.played;
  const ms = Math.ceil((at - now) / playing.speed);
  if (ms > 0) clock.advance(ms);
  const dayNow = raceDay.player.dayNow()!;
  return {
    trackId: meeting.trackId,
    raceNr: race.raceNr,
    phase: phaseOf(raceDay.day.current!.plan, target, dayNow),
    target: localIso(at),
    dayTime: localIso(dayNow),
    advancedMs: ms,
    played: raceDay.player.played - played,
    allowed: allowedActions(raceDay.day.current!.plan, meeting.trackId, race.raceNr, dayNow),
  };
}
