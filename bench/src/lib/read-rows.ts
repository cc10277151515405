import { compare } from './compare';
import type { Pair, ReadStore, Side } from './read-store';
import { median, perRound, round } from './stats';
import type { Comparison, Figure } from '../types';

/**
 * The rows of read-throughput, from the turns of paired rounds: every ratio is the median of
 * per-round ratios of two sides that ran back to back, with their lowest and highest.
 */

const rates = (side: Side) => side.results.map((r) => r.requestsPerSecond);
const medianOrNull = (values: readonly number[]) => (values.length > 0 ? median(values) : null);
const ms = (value: number | null) => (value === null ? '—' : `${round(value, 2)} ms`);
const bytes = (side: Side) => Math.round(side.results[0]?.bytesPerResponse ?? 0);

/** Each round's figures, so a stalled round shows rather than hides inside the median. */
const shown = (a: Side, b: Side) =>
  a.results
    .map((x, k) => `${Math.round(x.requestsPerSecond)}/${Math.round(b.results[k]?.requestsPerSecond ?? 0)}`)
    .join(', ');

function failures(sides: readonly Side[]): string[] {
  return sides.flatMap((side) => {
    const bad = side.results.reduce((a, b) => a + b.bad, 0);
    return bad > 0 ? [`${side.name}: ${bad} failed requests`] : [];
  });
}

/** req/s of a read against bare Node, then each server's CPU per 1,000 requests (INFO). */
export function pairRows(
  pair: Pair,
  target: { bound: number; text: string },
  peers: readonly Figure[] = [],
  peerNotes: readonly string[] = [],
): Comparison[] {
  const { ours, bare, scenario } = pair;
  return [
    compare({
      scenario: scenario.label,
      unit: 'req/s',
      ours: medianOrNull(rates(ours)),
      bare: medianOrNull(rates(bare)),
      peers,
      better: 'higher',
      bound: target.bound,
      beatPeers: peers.length > 0,
      target: target.text,
      ratios: perRound(rates(ours), rates(bare)),
      note: [
        `${bytes(ours)} B/response with headers (bare ${bytes(bare)} B)`,
        `rounds ours/bare req/s: ${shown(ours, bare)}`,
        ...failures([ours, bare]),
        ...peerNotes,
      ].join('; '),
    }),
    compare({
      scenario: `${scenario.label}: server CPU per 1,000 requests`,
      unit: 'ms',
      ours: medianOrNull(ours.cpu),
      bare: medianOrNull(bare.cpu),
      better: 'lower',
      ratios: perRound(ours.cpu, bare.cpu),
      note: 'user + system time of each server process over each turn, from /proc (medians); less sensitive than the rate to the load generator and to other load on the machine',
    }),
  ];
}

/** What `againstPageRow` compares with a page read of the same store. */
export type AgainstPage = 'no match' | 'selective' | 'LOG_REQUESTS on';

/**
 * Another read of ours against a page read of the same store, in the same rounds: the query that
 * matches nothing (its target: at most twice a page read's cost), a selective one, or the page
 * read of a simulator that logs every request (no target).
 */
export function againstPageRow(store: ReadStore, query: Side, what: AgainstPage, label: string): Comparison {
  const page = store.page.ours;
  const p50 = (side: Side) => medianOrNull(side.results.map((x) => x.p50Ms));
  const noMatch = what === 'no match';
  return compare({
    scenario: label,
    unit: 'req/s',
    ours: medianOrNull(rates(query)),
    bare: medianOrNull(rates(page)),
    bareName: 'GET /events page read, same store',
    better: 'higher',
    ...(noMatch && { bound: 0.5, target: 'costs <= 2x a page read (req/s >= 0.5x)' }),
    ratios: perRound(rates(query), rates(page)),
    ratioLabel: `${what} / page read, median of paired rounds (min–max)`,
    note: [
      `${noMatch ? '204, no body' : `${bytes(query)} B/response`}; p50 ${ms(p50(query))} against ${ms(p50(page))}`,
      `server CPU per 1,000 requests ${ms(medianOrNull(query.cpu))} against ${ms(medianOrNull(page.cpu))}`,
      `rounds ${what}/page req/s: ${shown(query, page)}`,
      ...failures([query]),
    ].join('; '),
  });
}

/**
 * Flatness: the page read's ours/bare at the largest store against the same at the one before
 * it, per round (both ran in the same rounds), so the store size alone moves the figure.
 */
export function flatnessRow(large: ReadStore, small: ReadStore): Comparison {
  const ratio = (p: Pair) => perRound(rates(p.ours), rates(p.bare));
  const count = (n: number) => n.toLocaleString('en-US');
  return compare({
    scenario: `GET /customerapi/events page reads, flatness: ${count(large.events)} stored events against ${count(small.events)}`,
    unit: 'req/s',
    ours: medianOrNull(rates(large.page.ours)),
    bare: medianOrNull(rates(small.page.ours)),
    bareName: 'ours, the smaller store',
    better: 'higher',
    bound: 0.85,
    target: `ours/bare at ${count(large.events)} within 15% of the figure at ${count(small.events)} (>= 0.85x)`,
    ratios: perRound(ratio(large.page), ratio(small.page)),
    ratioLabel: '(ours / bare, larger store) / (ours / bare, smaller store), median of rounds (min–max)',
    note: `Ours is the larger store's median req/s, the baseline the smaller store's; the ratio divides each round's ours/bare at ${count(large.events)} by the same round's at ${count(small.events)}, so drift of the machine cancels`,
  });
}
