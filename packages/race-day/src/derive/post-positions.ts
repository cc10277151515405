import type { Race } from '../model/types';

/**
 * Post positions after the scratchings made by `t` (race-day-facts.md, A race): in an autostart's
 * front row (1-8) the horses outside a scratched one move in one post, the second row keeps its
 * posts; in a volte each handicap tier closes up the same way, numbered from 1; gallop stalls do
 * not move. Scratched starters keep their drawn post.
 */
export function postPositions(race: Race, t: number): Map<number, number> {
  const out = new Map<number, number>();
  const gone = (startNr: number) => {
    const s = race.starters.find((x) => x.startNr === startNr)!;
    return s.scratched !== undefined && s.scratched.at <= t;
  };
  for (const s of race.starters) {
    if (race.startMethod === undefined || gone(s.startNr)) {
      out.set(s.startNr, s.drawnPosition);
      continue;
    }
    const sameGroup = (o: (typeof race.starters)[number]) =>
      race.startMethod === 'volte'
        ? (o.handicapMeters ?? 0) === (s.handicapMeters ?? 0)
        : s.drawnPosition <= 8 && o.drawnPosition <= 8;
    if (race.startMethod === 'auto' && s.drawnPosition > 8) {
      out.set(s.startNr, s.drawnPosition);
      continue;
    }
    const inside = race.starters.filter(
      (o) => sameGroup(o) && o.drawnPosition < s.drawnPosition && gone(o.startNr),
    ).length;
    out.set(s.startNr, s.drawnPosition - inside);
  }
  return out;
}
