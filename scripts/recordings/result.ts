import { kmTime, raceTime, round } from './format';
import type { Race } from './meeting-model';
import type { Data } from './messages';

export function result(race: Race, trot: boolean, riderField: string): Data {
  const finishers = race.starters
    .filter((s) => !s.scratched && s.breakAt === undefined)
    .sort((a, b) => a.finish - b.finish);
  const shares = [0.5, 0.25, 0.12, 0.08, 0.05];
  const winner = finishers[0]!.finish;
  return {
    name: race.name,
    distance: race.distance,
    ...(race.startMethod ? { startMethod: race.startMethod } : {}),
    placings: finishers.map((s, i) => ({
      place: i + 1,
      startNr: s.startNr,
      horse: s.horse,
      [riderField]: s.rider,
      trainer: s.trainer,
      ...(trot
        ? { kmTime: kmTime(s.finish, race.distance, race.startMethod) }
        : {
            time: raceTime(s.finish),
            marginLengths: i === 0 ? 0 : round(((s.finish - finishers[i - 1]!.finish) / 0.17) * 4, 0) / 4,
          }),
      odds: s.odds,
      ...(i < shares.length ? { prizeSek: Math.round((race.firstPrizeSek / shares[0]!) * shares[i]!) } : {}),
    })),
    winnerSeconds: round(winner, 2),
    disqualified: race.starters
      .filter((s) => s.breakAt !== undefined)
      .map((s) => ({ startNr: s.startNr, horse: s.horse, reason: 'galloping' })),
    scratched: race.starters.filter((s) => s.scratched).map((s) => ({ startNr: s.startNr, horse: s.horse })),
  };
}
