import { FILTERED, NO_MATCH, PAGING, SELECTIVE } from '../../drivers/read-paths';
import { readThroughput } from '../../drivers/read-throughput';

/** The bounds: a page read against bare Node (looser at 1,000,000 stored events), the others. */
const page = (n: number) =>
  n >= 1_000_000 ? { bound: 0.6, text: '>= 60% of bare' } : { bound: 0.7, text: '>= 70% of bare' };
const filtered = () => ({ bound: 0.5, text: '>= 50% of bare' });
const noMatch = () => ({ bound: 0.5, text: 'costs <= 2x a page read (req/s >= 0.5x)' });

export default readThroughput(
  [
    { read: PAGING, against: 'bare', page: true, target: page },
    { read: FILTERED, against: 'bare', target: filtered },
    { read: NO_MATCH, against: 'no match', status: 204, target: noMatch },
    { read: SELECTIVE, against: 'selective' },
  ],
  [
    'Ours is the JSON simulator as users run it: `node packages/cli/bin/racedata-sim.js json --port 0 --host 127.0.0.1 --no-replay` (the port read from its start banner), one process per store size, with EVENT_STORE_MAX set to the size and EVENT_STORE_MAX_BYTES raised so the count alone decides what is kept. Each is filled once, over HTTP, with POST /_sim/events (NDJSON, 25,000 events a body; start-list entries of about 340 bytes of JSON spread over race days and all eight durable channels), before any reads; the stores stay up side by side for the whole measure.',
    "autocannon in the harness process (apart from every server), no pipelining; a round runs, for each store, our page read, bare Node's page read, our filtered read, bare Node's filtered read, the no-match query and the selective query back to back; every other round runs the whole sequence reversed, so each pair's order alternates (after a warm-up of each side: 0.5 s, 0.1 s in quick mode). The Ratio column is the median of the per-round ratios with their lowest and highest; Ours and the baselines are the medians of their rounds. Peers run after each round.",
    'Page reads walk the store with a different lastEventId on every request (every page full, 100 events); filtered reads (channel + a date range) walk the range alike. Bare Node gets the same requests (the same walk of paths with their query strings, the same authorization header) and does the least a read must: parses the query, checks the header (401 otherwise) and sends the exact bytes of one of our pages for that read, pre-serialised (one bare process; its page is set before each of its turns, outside the timing). Mockoon CLI and json-server serve the page of the reference store (the one before the largest) as a canned response (Mockoon: templating off; json-server: re-serialised with its default 2-space indentation).',
    "Targets: a page read at >= 70% of bare Node (>= 60% at 1,000,000 events); a filtered read at >= 50%; a trackId + raceNr + startNr query over the whole date range that matches nothing (204) at no more than twice the cost of a page read of the same store (its req/s over the page read's, per round); a trackId + raceNr query over the whole date range that one event in 20 matches, against the page read likewise (INFO); flatness: the page read's ours/bare at the largest store within 15% of the one at the store before it (per round, so drift cancels).",
    'Below each throughput row against bare Node, the CPU time (user + system, all threads) each server process used per 1,000 requests over each turn, read from /proc/<pid>/stat (10 ms resolution; INFO, medians; the ratio is the median of per-round ratios).',
    'On a miss, the profile reruns that read on a fresh store of the largest size that missed, with the V8 CPU profiler on for the load only.',
  ],
);
