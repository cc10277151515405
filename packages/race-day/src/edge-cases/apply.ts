import type { Rng } from '../random';
import type { EdgeCasePlacement, Race, RaceDayPlan, Starter } from '../model/types';
import {
  actualStart,
  countdownFrom,
  expectedStartAt,
  finishersOf,
  resultAt,
  runnersOf,
} from '../derive/race-times';
import { placesOf, resultState } from '../derive/result';
import { personName, foreignCountry } from '../generate/names';
import { findMeeting, findRace, withRace, withStarter, type RaceRef } from '../ops/plan-edit';
import { changeDriver, scratch, stopRunner } from '../ops/starter-ops';
import { delayStart, falseStart } from '../ops/start-ops';
import { correctResult, deadHeat, demote, disqualifyAfterResult, photoFinish } from '../ops/finish-ops';
import {
  abandonMeeting,
  cancelMeeting,
  cancelRace,
  changeSurface,
  postponeMeeting,
} from '../ops/meeting-ops';
import { addDays } from '../time/dates';
import { localMinutesOf } from '../time/stockholm';
import type { Spot } from './placement';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export interface ApplyContext {
  /** Names handed out today, so a new driver is nobody already riding. */
  readonly taken: Set<string>;
  /** Starts an earlier case in the same race concerns: a later one picks another. */
  readonly claimed: Map<string, Set<number>>;
}

export interface Applied {
  readonly plan: RaceDayPlan;
  readonly placement: EdgeCasePlacement;
}

/** A moment in [from, to], whole seconds. */
const between = (r: Rng, from: number, to: number) =>
  Math.round((from + r.next() * Math.max(0, to - from)) / SECOND) * SECOND;

function claim(ctx: ApplyContext, ref: RaceRef, startNr: number): void {
  const k = `${ref.trackId}:${ref.raceNr}`;
  const set = ctx.claimed.get(k) ?? new Set();
  set.add(startNr);
  ctx.claimed.set(k, set);
}

function pick(r: Rng, ctx: ApplyContext, ref: RaceRef, among: readonly Starter[]): Starter {
  const claimed = ctx.claimed.get(`${ref.trackId}:${ref.raceNr}`) ?? new Set<number>();
  const open = among.filter((s) => !claimed.has(s.startNr));
  const chosen = r.pick(open.length > 0 ? open : among);
  claim(ctx, ref, chosen.startNr);
  return chosen;
}

/** What is decided ahead of a race (how it will run) is decided when its programme goes out. */
const ahead = (plan: RaceDayPlan, ref: RaceRef) => findMeeting(plan, ref.trackId).programmeAt;

const metres = (r: Rng, race: Race) => Math.round((race.distance * r.float(0.15, 0.85)) / 10) * 10;

type Apply = (plan: RaceDayPlan, spot: Spot & { raceNr: number }, r: Rng, ctx: ApplyContext) => Applied;

const at = (spot: Spot, startNr?: number): EdgeCasePlacement => ({
  id: spot.id,
  trackId: spot.trackId,
  ...(spot.raceNr !== undefined && { raceNr: spot.raceNr }),
  ...(startNr !== undefined && { startNr }),
});

const RACE_CASES: Record<string, Apply> = {
  'late-scratching': (plan, spot, r, ctx) => {
    const { race } = findRace(plan, spot);
    const s = pick(r, ctx, spot, runnersOf(race));
    const when = between(r, race.paradeAt + 30 * SECOND, actualStart(race) - 60 * SECOND);
    return {
      plan: scratch(plan, { ...spot, startNr: s.startNr }, when, 'veterinary decision'),
      placement: at(spot, s.startNr),
    };
  },
  'mass-scratching': (plan, spot, r, ctx) => {
    const meeting = findMeeting(plan, spot.trackId);
    const { race } = findRace(plan, spot);
    const first = pick(r, ctx, spot, runnersOf(race));
    const later = meeting.races.filter((x) => x.raceNr > race.raceNr && runnersOf(x).length >= 5);
    let next = plan;
    // The stable needs a second horse entered today: give it one in a later race when it has none.
    const others = later.flatMap((x) =>
      runnersOf(x)
        .filter((s) => s.trainer === first.trainer)
        .map((s) => ({ x, s })),
    );
    if (others.length === 0 && later.length > 0) {
      const x = r.pick(later);
      const s = r.pick(runnersOf(x));
      next = withStarter(next, { trackId: spot.trackId, raceNr: x.raceNr, startNr: s.startNr }, (o) => ({
        ...o,
        trainer: first.trainer,
      }));
      others.push({ x, s });
    }
    const when = between(
      r,
      Math.max(meeting.programmeAt + 15 * MINUTE, countdownFrom(race) - 90 * MINUTE),
      countdownFrom(race) - 15 * MINUTE,
    );
    next = scratch(next, { ...spot, startNr: first.startNr }, when, 'transport problem', first.trainer);
    for (const { x, s } of others) {
      claim(ctx, { trackId: spot.trackId, raceNr: x.raceNr }, s.startNr);
      next = scratch(
        next,
        { trackId: spot.trackId, raceNr: x.raceNr, startNr: s.startNr },
        when,
        'transport problem',
        first.trainer,
      );
    }
    return { plan: next, placement: at(spot, first.startNr) };
  },
  'driver-change': (plan, spot, r, ctx) => {
    const meeting = findMeeting(plan, spot.trackId);
    const { race } = findRace(plan, spot);
    const s = pick(r, ctx, spot, runnersOf(race));
    const to = personName(r);
    ctx.taken.add(to);
    const when = between(r, meeting.programmeAt + 30 * MINUTE, countdownFrom(race) - 10 * MINUTE);
    const reason = r.pick(['driver ill', 'driver injured in an earlier race', 'driver suspended']);
    return {
      plan: changeDriver(plan, { ...spot, startNr: s.startNr }, when, to, reason),
      placement: at(spot, s.startNr),
    };
  },
  monte: (plan, spot) => ({
    plan: withRace(plan, spot, (race) => ({ ...race, monte: true, terms: `${race.terms} Monté.` })),
    placement: at(spot),
  }),
  'foreign-horse': (plan, spot, r, ctx) => {
    const { race } = findRace(plan, spot);
    const s = pick(r, ctx, spot, race.starters);
    const country = foreignCountry(r);
    const next = withStarter(plan, { ...spot, startNr: s.startNr }, (o) => ({
      ...o,
      country,
      horse: `${o.horse} (${country})`,
    }));
    return { plan: next, placement: at(spot, s.startNr) };
  },
  'surface-change': (plan, spot, r) => {
    const meeting = findMeeting(plan, spot.trackId);
    const { race } = findRace(plan, spot);
    const when = between(r, meeting.programmeAt + 30 * MINUTE, countdownFrom(race) - 30 * MINUTE);
    return { plan: changeSurface(plan, spot, when, 'dirt', 'waterlogged turf'), placement: at(spot) };
  },
  'delayed-start': (plan, spot, r) => {
    const { race } = findRace(plan, spot);
    const expected = expectedStartAt(race, Number.POSITIVE_INFINITY);
    const when = between(r, Math.max(race.paradeAt, expected - 4 * MINUTE), expected - 60 * SECOND);
    const reason =
      findMeeting(plan, spot.trackId).sport === 'trot' ? 'start car failure' : 'starting stalls fault';
    return { plan: delayStart(plan, spot, when, r.int(3, 10), reason), placement: at(spot) };
  },
  'false-start': (plan, spot, r) => {
    const { race } = findRace(plan, spot);
    const given = actualStart(race);
    const recall = given + r.int(4, 10) * SECOND;
    return {
      plan: falseStart(plan, spot, given, recall, recall + r.int(60, 150) * SECOND),
      placement: at(spot),
    };
  },
  'gallop-disqualification': (plan, spot, r, ctx) => stopOne(plan, spot, r, ctx, 'disqualified', 'galloping'),
  'non-finisher': (plan, spot, r, ctx) =>
    stopOne(
      plan,
      spot,
      r,
      ctx,
      'nonFinisher',
      r.pick(['pulled up, lame', 'equipment failure', 'lost its rider']),
    ),
  'photo-finish': (plan, spot, r) => {
    const { race } = findRace(plan, spot);
    const [first, second] = [...finishersOf(race)].sort((a, b) => a.finishSeconds - b.finishSeconds);
    let next = photoFinish(plan, spot, ahead(plan, spot), r.int(3, 7) * MINUTE);
    if (first && second) {
      const close = Math.round((first.finishSeconds + r.int(1, 3) / 100) * 100) / 100;
      next = withStarter(next, { ...spot, startNr: second.startNr }, (s) => ({ ...s, finishSeconds: close }));
    }
    return { plan: next, placement: at(spot, second?.startNr) };
  },
  'dead-heat': (plan, spot, r, ctx) => {
    const { race } = findRace(plan, spot);
    const order = [...finishersOf(race)].sort((a, b) => a.finishSeconds - b.finishSeconds);
    // Two finishers leave only the first pair (non-finishers and disqualifications can thin a field).
    const k = r.chance(0.5) || order.length < 3 ? 0 : r.int(1, Math.min(4, order.length - 2));
    const pair = [order[k]!, order[k + 1]!].filter(Boolean);
    pair.forEach((s) => claim(ctx, spot, s.startNr));
    const next = photoFinish(plan, spot, ahead(plan, spot), r.int(4, 8) * MINUTE);
    return {
      plan: deadHeat(
        next,
        spot,
        ahead(plan, spot),
        pair.map((s) => s.startNr),
      ),
      placement: at(spot, pair[0]?.startNr),
    };
  },
  'result-correction': (plan, spot, r) => {
    const { race } = findRace(plan, spot);
    const when = resultAt(race) + r.int(3, 12) * MINUTE;
    const standing = resultState(race, when).standing;
    const i = r.int(1, Math.max(1, Math.min(3, standing.length - 2)));
    const swapped = [...standing];
    [swapped[i], swapped[i - 1]] = [swapped[i - 1]!, swapped[i]!];
    const placings = [...placesOf(swapped)].map(([startNr, place]) => ({ startNr, place }));
    const reason = 'the judges corrected the finishing order';
    return {
      plan: correctResult(plan, spot, when, placings, reason),
      placement: at(spot, swapped[i - 1]![0]),
    };
  },
  demotion: (plan, spot, r, ctx) => {
    const { race } = findRace(plan, spot);
    const when = resultAt(race) + r.int(5, 15) * MINUTE;
    const places = placesOf(resultState(race, when).standing);
    const top = [...places].filter(([, p]) => p <= 3 && p < places.size).map(([n]) => n);
    const startNr = pick(
      r,
      ctx,
      spot,
      race.starters.filter((s) => top.includes(s.startNr)),
    ).startNr;
    const toPlace = Math.min(places.size, places.get(startNr)! + r.int(1, 3));
    return {
      plan: demote(plan, { ...spot, startNr }, when, toPlace, 'interference in the final straight'),
      placement: at(spot, startNr),
    };
  },
  'disqualification-after-result': (plan, spot, r, ctx) => {
    const { race } = findRace(plan, spot);
    const when = resultAt(race) + r.int(5, 20) * MINUTE;
    const places = placesOf(resultState(race, when).standing);
    const top = [...places].filter(([, p]) => p <= 5).map(([n]) => n);
    const startNr = pick(
      r,
      ctx,
      spot,
      race.starters.filter((s) => top.includes(s.startNr)),
    ).startNr;
    return {
      plan: disqualifyAfterResult(plan, { ...spot, startNr }, when, 'interference'),
      placement: at(spot, startNr),
    };
  },
  'cancelled-race': (plan, spot, r) => {
    const meeting = findMeeting(plan, spot.trackId);
    const { race } = findRace(plan, spot);
    const when = between(r, meeting.programmeAt + 30 * MINUTE, countdownFrom(race) - 20 * MINUTE);
    return {
      plan: cancelRace(plan, spot, when, r.pick(['too few starters', 'track conditions'])),
      placement: at(spot),
    };
  },
};

function stopOne(
  plan: RaceDayPlan,
  spot: Spot & { raceNr: number },
  r: Rng,
  ctx: ApplyContext,
  how: 'disqualified' | 'nonFinisher',
  reason: string,
): Applied {
  const { race } = findRace(plan, spot);
  const s = pick(r, ctx, spot, finishersOf(race));
  const next = stopRunner(
    plan,
    { ...spot, startNr: s.startNr },
    ahead(plan, spot),
    how,
    metres(r, race),
    reason,
    r.int(2, 8) * SECOND,
  );
  return { plan: next, placement: at(spot, s.startNr) };
}

function applyMeetingCase(plan: RaceDayPlan, spot: Spot, r: Rng): Applied {
  const meeting = findMeeting(plan, spot.trackId);
  const first = meeting.races[0]!;
  const morning = () =>
    between(
      r,
      meeting.programmeAt + 20 * MINUTE,
      Math.min(meeting.programmeAt + 150 * MINUTE, countdownFrom(first) - 30 * MINUTE),
    );
  switch (spot.id) {
    case 'cancelled-meeting':
      return {
        plan: cancelMeeting(
          plan,
          spot.trackId,
          morning(),
          r.pick(['frozen track', 'waterlogged track', 'storm warning']),
        ),
        placement: at(spot),
      };
    case 'postponed-meeting': {
      const toDate = addDays(meeting.date, r.pick([1, 7, 14]));
      const last = localMinutesOf(meeting.races.at(-1)!.scheduledStart);
      const shift = Math.min(r.pick([-60, -30, 30, 60, 90]), 21 * 60 + 30 - last);
      return {
        plan: postponeMeeting(plan, spot.trackId, morning(), toDate, shift, 'track conditions'),
        placement: at(spot),
      };
    }
    default: {
      const afterRace = spot.raceNr!;
      const { race } = findRace(plan, { trackId: spot.trackId, raceNr: afterRace });
      const next = meeting.races.find((x) => x.raceNr === afterRace + 1)!;
      // A minute after the race's result where the next start leaves room; else while that
      // result is still awaited (a photo finish or a delayed start can run up to the next
      // start), which abandonMeeting allows from the race's start until the next one's.
      const latest = Math.min(resultAt(race) + 10 * MINUTE, actualStart(next) - 60 * SECOND);
      const afterResult = resultAt(race) + 60 * SECOND;
      const earliest =
        afterResult < actualStart(next) - SECOND ? afterResult : Math.max(actualStart(race), latest);
      const when = between(r, earliest, Math.max(earliest, latest));
      return {
        plan: abandonMeeting(
          plan,
          spot.trackId,
          afterRace,
          when,
          r.pick(['heavy rain, unsafe track', 'power failure']),
        ),
        placement: at(spot, undefined),
      };
    }
  }
}

/** Applies one placed case to the plan with the ops an action would use, at a time it draws. */
export function applyEdgeCase(plan: RaceDayPlan, spot: Spot, r: Rng, ctx: ApplyContext): Applied {
  const raceCase = RACE_CASES[spot.id];
  if (raceCase) return raceCase(plan, spot as Spot & { raceNr: number }, r, ctx);
  return applyMeetingCase(plan, spot, r);
}
