import { raceDayError } from '../errors';
import type { Rng } from '../random';
import type { Meeting, Race, RaceDayPlan } from '../model/types';
import type { EdgeCaseItem, EdgeCaseRequest } from '../model/options';
import { findMeeting, findRace } from '../ops/plan-edit';
import { runnersOf } from '../derive/race-times';
import { EDGE_CASES, edgeCaseDef, type EdgeCaseDef, type Slot } from './catalog';

/** Where a case will be applied; the start it concerns is chosen when it is applied. */
export interface Spot {
  readonly id: string;
  readonly trackId: number;
  /** Race-level: the race. abandoned-meeting: the race after which it stops. */
  readonly raceNr?: number;
}

type CalledOff = { kind: 'whole' } | { kind: 'after'; raceNr: number };

interface Board {
  readonly plan: RaceDayPlan;
  readonly calledOff: Map<number, CalledOff>;
  /** `${trackId}:${raceNr}` -> slots taken; 'whole' when a case owns the race. */
  readonly slots: Map<string, Set<Slot | 'any'>>;
  readonly spots: Spot[];
}

const key = (trackId: number, raceNr: number) => `${trackId}:${raceNr}`;
const invalid = (message: string) => raceDayError('RACE_DAY_INVALID', message);

/** Why a race cannot take a case, or undefined when it can. */
function refusal(board: Board, def: EdgeCaseDef, meeting: Meeting, race: Race): string | undefined {
  const off = board.calledOff.get(meeting.trackId);
  if (off?.kind === 'whole' || (off?.kind === 'after' && race.raceNr > off.raceNr)) {
    return `race ${race.raceNr} at track ${meeting.trackId} is called off by a meeting-level case`;
  }
  if (def.sport && meeting.sport !== def.sport) return `${def.id} happens in ${def.sport} races only`;
  if (def.id === 'surface-change' && race.surface !== 'turf') return 'surface-change needs a race on turf';
  if (
    runnersOf(race).length < 5 &&
    ['late-scratching', 'mass-scratching', 'gallop-disqualification', 'non-finisher'].includes(def.id)
  ) {
    return `race ${race.raceNr} at track ${meeting.trackId} has too few starters left for ${def.id}`;
  }
  const taken = board.slots.get(key(meeting.trackId, race.raceNr));
  if (taken?.has('whole'))
    return `race ${race.raceNr} at track ${meeting.trackId} is cancelled by cancelled-race`;
  if (def.slot === 'whole' && taken && taken.size > 0)
    return `cancelled-race needs a race with no other edge case`;
  if (def.slot && taken?.has(def.slot))
    return `another case already decides race ${race.raceNr}'s ${def.slot}`;
  return undefined;
}

function take(board: Board, def: EdgeCaseDef, meeting: Meeting, race: Race): void {
  const k = key(meeting.trackId, race.raceNr);
  const taken = board.slots.get(k) ?? new Set();
  taken.add(def.slot ?? 'any');
  board.slots.set(k, taken);
  board.spots.push({ id: def.id, trackId: meeting.trackId, raceNr: race.raceNr });
}

function placeRace(
  board: Board,
  def: EdgeCaseDef,
  item: Partial<EdgeCaseItem>,
  r: Rng,
  required: boolean,
): boolean {
  if (item.trackId !== undefined && item.raceNr !== undefined) {
    const { meeting, race } = findRace(board.plan, { trackId: item.trackId, raceNr: item.raceNr });
    const why = refusal(board, def, meeting, race);
    if (why) throw invalid(`${def.id}@${item.trackId}:${item.raceNr}: ${why}`);
    take(board, def, meeting, race);
    return true;
  }
  const meetings = item.trackId === undefined ? board.plan.meetings : [findMeeting(board.plan, item.trackId)];
  const open = meetings.flatMap((m) =>
    m.races.filter((race) => !refusal(board, def, m, race)).map((race) => ({ m, race })),
  );
  if (open.length === 0) {
    if (!required) return false;
    const where = item.trackId === undefined ? 'this day' : `track ${item.trackId}`;
    const hint = def.sport === 'gallop' ? ' (it needs a gallop meeting: meetings trot:N,gallop:1)' : '';
    throw invalid(`no race of ${where} can take ${def.id}${hint}`);
  }
  const { m, race } = r.pick(open);
  take(board, def, m, race);
  return true;
}

function placeMeeting(
  board: Board,
  def: EdgeCaseDef,
  item: Partial<EdgeCaseItem>,
  r: Rng,
  required: boolean,
  keep: Set<number>,
): void {
  let meeting: Meeting | undefined;
  if (item.trackId !== undefined) {
    meeting = findMeeting(board.plan, item.trackId);
    if (item.raceNr !== undefined) findRace(board.plan, { trackId: item.trackId, raceNr: item.raceNr });
    if (board.calledOff.has(meeting.trackId)) {
      throw invalid(`${def.id}@${item.trackId}: the meeting already has a meeting-level case`);
    }
  } else {
    const open = board.plan.meetings.filter((m) => !board.calledOff.has(m.trackId) && !keep.has(m.trackId));
    if (open.length === 0) {
      if (!required) return;
      throw invalid(
        `no meeting is left for ${def.id}; with all, use meetings auto or at least trot:3,gallop:1`,
      );
    }
    meeting = r.pick(open);
  }
  const races = meeting.races.length;
  if (def.id === 'abandoned-meeting') {
    const afterRace =
      item.raceNr ?? (keep.size > 0 ? Math.max(1, races - 2) : r.int(1, Math.max(1, races - 1)));
    if (afterRace >= races)
      throw invalid(
        `abandoned-meeting@${meeting.trackId}:${afterRace}: race ${afterRace} is the last; nothing is left to abandon`,
      );
    board.calledOff.set(meeting.trackId, { kind: 'after', raceNr: afterRace });
    board.spots.push({ id: def.id, trackId: meeting.trackId, raceNr: afterRace });
  } else {
    board.calledOff.set(meeting.trackId, { kind: 'whole' });
    board.spots.push({ id: def.id, trackId: meeting.trackId });
  }
}

/** Meetings `all` keeps running: one of each sport, so every race-level case has somewhere to go. */
function keptForAll(plan: RaceDayPlan, r: Rng): Set<number> {
  const keep = new Set<number>();
  for (const sport of ['gallop', 'trot'] as const) {
    const of = plan.meetings.filter((m) => m.sport === sport);
    if (of.length > 0 && (sport === 'gallop' || of.length > 3)) keep.add(r.pick(of).trackId);
  }
  return keep;
}

/**
 * Decides where the requested cases sit: meeting-level cases first (each on a meeting of its
 * own), then race-level ones on races those leave running, one case per slot of a race.
 */
export function placeEdgeCases(plan: RaceDayPlan, request: EdgeCaseRequest, r: Rng): Spot[] {
  const board: Board = { plan, calledOff: new Map(), slots: new Map(), spots: [] };
  if (request.mode === 'none') return [];
  if (request.mode === 'default') {
    for (const meeting of plan.meetings) {
      for (const def of EDGE_CASES.filter((d) => d.level === 'meeting')) {
        if (!board.calledOff.has(meeting.trackId) && r.chance(def.rate))
          placeMeeting(board, def, { trackId: meeting.trackId }, r, false, new Set());
      }
    }
    for (const meeting of plan.meetings) {
      for (const race of meeting.races) {
        for (const def of EDGE_CASES.filter((d) => d.level === 'race')) {
          if (r.chance(def.rate) && !refusal(board, def, meeting, race)) take(board, def, meeting, race);
        }
      }
    }
  } else {
    const items: Array<Partial<EdgeCaseItem> & { id: string }> =
      request.mode === 'list' ? [...request.items] : EDGE_CASES.map((d) => ({ id: d.id }));
    // A meeting a race-level case is asked for by track is never the one a random meeting-level case calls off.
    const keep =
      request.mode === 'all'
        ? keptForAll(plan, r)
        : new Set(
            items
              .filter((i) => i.trackId !== undefined && edgeCaseDef(i.id)!.level === 'race')
              .map((i) => i.trackId!),
          );
    const defs = items.map((item) => ({ item, def: edgeCaseDef(item.id)! }));
    // Placed ones first, then the rest wherever they fit; meeting-level before race-level.
    const order = [...defs].sort(
      (a, b) =>
        Number(a.def.level === 'race') - Number(b.def.level === 'race') ||
        Number(a.item.trackId === undefined) - Number(b.item.trackId === undefined) ||
        Number(a.item.raceNr === undefined) - Number(b.item.raceNr === undefined),
    );
    for (const { item, def } of order.filter((o) => o.def.level === 'meeting')) {
      placeMeeting(board, def, item, r, true, keep);
    }
    const raceLevel = order.filter((o) => o.def.level === 'race');
    if (request.mode === 'list') {
      for (const { item, def } of raceLevel) placeRace(board, def, item, r, true);
    } else {
      // `all` first places in catalogue order; a case that found every race it fits taken
      // (cancelled-race wants a race of its own) gets its place before the others on a second
      // pass. Only days that need it draw differently, so every other day stays as it was.
      const missed = raceLevel.filter(({ item, def }) => !placeRace(board, def, item, r, false));
      if (missed.length > 0) {
        board.slots.clear();
        board.spots.splice(board.spots.length - (raceLevel.length - missed.length));
        for (const { item, def } of [...missed, ...raceLevel.filter((o) => !missed.includes(o))]) {
          // A gallop case no gallop race can take (or a day with no turf for surface-change) is
          // left out rather than refusing the day; a case asked for by name is still required.
          placeRace(board, def, item, r, def.sport !== 'gallop');
        }
      }
    }
  }
  const stage = (id: string) => edgeCaseDef(id)!.stage;
  return board.spots.sort(
    (a, b) => stage(a.id) - stage(b.id) || a.trackId - b.trackId || (a.raceNr ?? 0) - (b.raceNr ?? 0),
  );
}
