import type { Race, Starter } from '../model/types';

/**
 * Post positions after the scratchings made by `t` (race-day-facts.md, A race): in an autostart's
 * front row (1-8) the horses outside a scratched one move in one post, the second row keeps its
 * posts; in a volte each handicap tier closes up the same way, numbered from 1; gallop stalls do
 * not move. Scratched starters keep their drawn post.
 */
export function postPositions(race: Race, t: number): Map<number, number> {
  const out = new Map<number, number>();
  const gone = (s: Starter) => s.scratched !== undefined && s.scratched.at <= t;
  const groups = new Map<number, Starter[]>();
  for (const s of race.starters) {
    // The group whose posts close up: a volte tier, or an autostart's front row.
    const group =
      race.startMethod === 'volte'
        ? (s.handicapMeters ?? 0)
        : race.startMethod === 'auto' && s.drawnPosition <= 8
          ? -1
          : undefined;
    if (group === undefined) out.set(s.startNr, s.drawnPosition);
    else groups.set(group, [...(groups.get(group) ?? []), s]);
  }
  for (const members of groups.values()) {
    let inside = 0;
    for (const s of [...members].sort((a, b) => a.drawnPosition - b.drawnPosition)) {
      if (gone(s)) {
        out.set(s.startNr, s.drawnPosition);
        inside += 1;
      } else {
        out.set(s.startNr, s.drawnPosition - inside);
      }
    }
  }
  return out;
}
