import { localIso } from './day-plan';
import { kmTime, round } from './format';
import { field, timeAt, type Meeting } from './meeting-model';
import type { Data, Ev } from './messages';
import type { Rng } from './prng';
import { result } from './result';

const START_COUNTDOWN_S = 180;
const PARADE_COUNTDOWN_S = 120;
const PARADE_BEFORE_START_MS = 10 * 60_000;

// Draws from `r` too (breaks, official results), so it must run right after its meeting is built.
export function events(r: Rng, meeting: Meeting): Ev[] {
  const { plan, races } = meeting;
  const trot = plan.sport === 'trot';
  const riderField = trot ? 'driver' : 'jockey';
  const out: Ev[] = [];
  out.push({
    at: meeting.programmeAt,
    base: 'RaceDay',
    data: {
      track: plan.track,
      firstStart: localIso(races[0]!.start),
      races: races.map((race) => ({
        raceNr: race.nr,
        name: race.name,
        startTime: localIso(race.start),
        distance: race.distance,
        ...(race.startMethod ? { startMethod: race.startMethod } : {}),
        starters: race.starters.length,
        firstPrizeSek: race.firstPrizeSek,
      })),
    },
  });
  for (const race of races) {
    const emit = (base: string, at: number, data: Data, startNr?: number) =>
      out.push({ at, base, data, raceNr: race.nr, ...(startNr === undefined ? {} : { startNr }) });
    const startTime = localIso(race.start);
    const method = race.startMethod ? { startMethod: race.startMethod } : {};
    const starters = race.starters.map((s) => ({
      startNr: s.startNr,
      horse: s.horse,
      age: s.age,
      sex: s.sex,
      [riderField]: s.rider,
      trainer: s.trainer,
      ...(s.weightKg === undefined ? {} : { weightKg: s.weightKg }),
    }));
    const head = { track: plan.track, name: race.name, startTime, distance: race.distance, ...method };
    emit('StartList', meeting.programmeAt + 30_000 + race.nr * 5_000, { ...head, starters });
    for (const s of race.starters.filter((x) => x.scratched)) {
      emit('Scratchings', s.scratched!.at, { horse: s.horse, reason: s.scratched!.reason }, s.startNr);
    }
    for (let left = START_COUNTDOWN_S; left >= 0; left--) {
      emit('TimeToStart', race.start - left * 1000, { secondsToStart: left, startTime });
    }
    const parade = race.start - PARADE_BEFORE_START_MS;
    for (let left = PARADE_COUNTDOWN_S; trot && left >= 0; left--) {
      emit('TimeToDef', parade - left * 1000, { secondsToParade: left, paradeTime: localIso(parade) });
    }
    const step = trot ? 500 : 400;
    const leaderAt = (d: number) => field(race, d, false).leaderTime;
    for (let d = step; d < race.distance; d += step) {
      const { leaderTime, positions } = field(race, d, false);
      const timing = trot
        ? { kmTime: kmTime(leaderTime, d, race.startMethod) }
        : { sectionalSeconds: round(leaderTime - leaderAt(d - step), 2) };
      const data = { distance: d, elapsedSeconds: round(leaderTime, 1), ...timing, positions };
      emit('SplitTimes', race.start + Math.round(leaderTime * 1000), data);
    }
    for (const s of race.starters.filter((x) => x.breakAt !== undefined)) {
      const at = race.start + Math.round(timeAt(s, race, s.breakAt!) * 1000) + r.int(2, 8) * 1000;
      const data = { horse: s.horse, driver: s.rider, distance: s.breakAt, reason: 'galloping' };
      emit('PrelDisqualifiedHorses', at, data, s.startNr);
    }
    for (let toGo = 500; toGo >= 0; toGo -= 100) {
      const { leaderTime, positions } = field(race, race.distance - toGo, true);
      emit('Last500Meters', race.start + Math.round(leaderTime * 1000), { metersToGo: toGo, positions });
    }
    const official = race.start + Math.round(leaderAt(race.distance) * 1000) + r.int(150, 300) * 1000;
    emit('Result', official, result(race, trot, riderField));
  }
  return out.sort((a, b) => a.at - b.at);
}
