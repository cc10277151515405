import type { ClientSet } from '../clients/sets';
import { spread, type ReceiptLedger } from '../harness/ledger';
import { distribution, round } from '../harness/rows';
import { health, healthCheck, type ProbeResult } from '../harness/watch';
import { checksTable, machineInfo, machineLine, table } from '../results/write-results';
import { check } from '../types';
import type { SoakConfig } from './config';

/** Each transport's receipts of its own kind of message, and its clients; the durable two first. */
export type Transports = ReadonlyArray<readonly [name: string, ledger: ReceiptLedger, clients: ClientSet]>;

/** What the run saw besides the ledgers. */
export interface Observed {
  readonly pids: Record<string, number>;
  readonly rss: Record<string, Samples>;
  readonly probes: ProbeResult;
  /** Date.now() at the end of the warm-up: probes sent before it are left out of the verdict. */
  readonly warmUpEndWall: number;
  readonly loadEndMs: number;
  readonly loadEventLoopP99Ms: number;
  readonly drainMs: number;
  readonly drainComplete: boolean;
  readonly durationMs: number;
}

/** The target: RSS at the end of the load at most this many times the RSS after warm-up. */
const RSS_GROWTH_LIMIT = 1.2;

type Samples = Array<{ atMs: number; kb: number }>;

function rssFigures(pid: number, samples: Samples, warmUpMs: number, loadMs: number) {
  const kb = (s?: { kb: number }) => s?.kb ?? Number.NaN;
  return {
    ...{ pid, samples, startKb: kb(samples[0]) },
    warmUpKb: kb(samples.find((s) => s.atMs >= warmUpMs) ?? samples.at(-1)),
    peakKb: samples.length > 0 ? Math.max(...samples.map((s) => s.kb)) : Number.NaN,
    /** At the end of the load, not after the drain: compared under the same load as the warm-up figure. */
    endKb: kb(samples.filter((s) => s.atMs <= loadMs + 1000).at(-1)),
    /** After the final drain, with the load gone. */
    drainedKb: kb(samples.at(-1)),
  };
}

/** One transport's posts and receipts, per receiver (a client; for the legacy queue, a user) and in all. */
const transport = (ledger: ReceiptLedger, { count, polls }: ClientSet) => ({
  ...{ posted: ledger.posts.count, failed: ledger.posts.failed, clients: count, ...ledger.counts },
  expected: ledger.expected().reduce((a, b) => a + b, 0),
  missing: ledger.missing(),
  ...{ outOfOrder: ledger.outOfOrder, disconnects: ledger.disconnects, polls: { ...polls }, odd: ledger.odd },
  perReceiver: { received: spread(Array.from(ledger.perReceiver)), expected: spread(ledger.expected()) },
  /** Post sent -> first receipt read, ms. */
  latency: distribution(ledger.latency),
});

type Figure = 'posted' | 'failed' | 'duplicated' | 'foreign' | 'corrupt' | 'missing' | 'outOfOrder';

/** The soak's figures from its ledgers and samples, and its verdicts against the targets. */
export function soakReport(config: SoakConfig, ledgers: Transports, seen: Observed) {
  const lostExamples: Array<{ seq: number; user: string; target: string }> = [];
  ledgers[0]?.[1].missing(lostExamples);
  const all = ledgers.map(([name, ledger, set]) => [name, transport(ledger, set)] as const);
  const [durable, transient] = [all.slice(0, 2), all.slice(2)];
  const sum = (key: Figure, from = all) => from.reduce((n, [, t]) => n + t[key], 0);
  const by = (key: Figure, from = all) =>
    `${sum(key, from)} (${from.map(([name, t]) => `${name} ${t[key]}`).join(', ')})`;
  const totals = {
    ...{ posted: sum('posted'), failed: sum('failed'), lost: sum('missing', durable) },
    ...{ duplicated: sum('duplicated'), foreign: sum('foreign') },
    transientMissing: sum('missing', transient),
  };
  const simulators = Object.fromEntries(
    Object.entries(seen.pids).map(([kind, pid]) => {
      const rss = rssFigures(pid, seen.rss[kind] ?? [], config.warmUpMs, seen.loadEndMs);
      const wholeRun = health(seen.probes[kind]);
      return [kind, { ...rss, health: health(seen.probes[kind], seen.warmUpEndWall), wholeRun }];
    }),
  );
  const altered = sum('corrupt') + sum('outOfOrder');
  const disconnects = transient.reduce((n, [, t]) => n + t.disconnects, 0);
  const missed = `${by('missing', transient)}; disconnects ${disconnects}`;
  const verdicts = [
    check('posts accepted', '0 failed', `${totals.failed} failed of ${totals.posted}`, totals.failed === 0),
    check('durable messages lost', '0', by('missing', durable), totals.lost === 0),
    check('deliveries duplicated', '0', by('duplicated'), totals.duplicated === 0),
    check('foreign-channel deliveries', '0', by('foreign'), totals.foreign === 0),
    check('out of order or altered deliveries', '0', String(altered), altered === 0),
    check('transient messages missed by connected clients', '0', missed, totals.transientMissing === 0),
    ...Object.entries(simulators).flatMap(([name, s]) => [
      check(
        `${name} RSS flat after warm-up`,
        `end <= ${RSS_GROWTH_LIMIT}x after warm-up`,
        `${(s.warmUpKb / 1024).toFixed(1)} -> ${(s.endKb / 1024).toFixed(1)} MB (${round(s.endKb / s.warmUpKb)}x)`,
        s.endKb / s.warmUpKb <= RSS_GROWTH_LIMIT,
      ),
      healthCheck(name, s.health, `; after warm-up; whole run p99 ${s.wholeRun.p99} ms`),
    ]),
  ];
  return {
    ...{ mode: config.quick ? ('quick' as const) : ('full' as const), machine: machineInfo() },
    ...{ settings: config, transports: Object.fromEntries(all), totals, lostExamples },
    ...{ simulators, loadEventLoopP99Ms: seen.loadEventLoopP99Ms },
    ...{ drainMs: Math.round(seen.drainMs), drainComplete: seen.drainComplete },
    ...{ verdicts, pass: verdicts.every((v) => v.pass), durationMs: seen.durationMs },
  };
}

export type SoakReport = ReturnType<typeof soakReport>;

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
const ms = (v = Number.NaN) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'n/a');
const few = (x: { min: number; median: number; max: number }) => `${x.min} / ${x.median} / ${x.max}`;
const DELIVERIES =
  'Transport|Posted|Failed|Clients|Expected|Received|Missing|Duplicated|Foreign channel|Out of order / altered|Disconnects|Hang-ups / poll errors|Per receiver: received (expected) min / median / max|p50|p99|max';
const SIMULATORS =
  'Simulator|RSS start|after warm-up|peak|end of load|after drain|/health p50|p99 (whole run)|max|failed';

export function soakMarkdown(r: SoakReport): string {
  const s = r.settings;
  const hangUps =
    s.hangUpStyle === 'close' ? 'closing their side, reading what was sent' : 'resetting at once';
  const at = (v: { atMs: number; kb: number }) => `${Math.round(v.atMs / 1000)}s ${mb(v.kb)}`;
  const lostList = r.lostExamples.map((l) => `#${l.seq} to ${l.target} for ${l.user}`).join(', ');
  const clients = Object.entries(s.clients).map(([k, v]) => `${v} ${k}`);
  const transports = Object.entries(r.transports);
  const lines = [
    `# Soak run (${r.mode})\n\n${machineLine(r.machine)}.`,
    `Load ${s.loadMs / 1000} s (warm-up ${s.warmUpMs / 1000} s), then a final drain of ${(r.drainMs / 1000).toFixed(1)} s (${r.drainComplete ? 'everything arrived' : 'stopped at its limit'}); ${s.postsPerSecond} posts/s of each kind; LONG_POLL_TIMEOUT_MS ${s.longPollTimeoutMs}.`,
    `Clients: ${clients.join(', ')}; ${s.legacyUsers} legacy users, ${s.jsonUsers} JSON users; ${Math.round(s.hangUpShare * 100)}% of the legacy pollers hang up on half their polls, half of those 0-20 ms after sending (destroying the socket) and half at random mid-poll (${hangUps}).`,
    '\n## Verdict\n',
    ...checksTable(r.verdicts),
    '\n## Messages and deliveries (post sent -> receipt read, in the load process)\n',
    ...table(
      DELIVERIES.split('|'),
      transports.map(([name, t]) => [
        ...[name, t.posted, t.failed, t.clients, t.expected, t.deliveries],
        ...[t.missing, t.duplicated, t.foreign, `${t.outOfOrder} / ${t.corrupt}`, t.disconnects],
        `${t.polls.hangUps} / ${t.polls.errors}`,
        `${few(t.perReceiver.received)} (${few(t.perReceiver.expected)})`,
        ...[ms(t.latency.p50), ms(t.latency.p99), ms(t.latency.max)],
      ]),
    ),
    `\nLoad process event-loop delay p99: ${ms(r.loadEventLoopP99Ms)}.`,
    '\n## Simulator processes (GET /health probed from a separate process every 100 ms)\n',
    ...table(
      SIMULATORS.split('|'),
      Object.entries(r.simulators).map(([k, x]) => [
        ...[k, ...[x.startKb, x.warmUpKb, x.peakKb, x.endKb, x.drainedKb].map(mb), ms(x.health.p50)],
        ...[`${ms(x.health.p99)} (${ms(x.wholeRun.p99)})`, ms(x.health.max), x.health.failed],
      ]),
    ),
    '',
    ...Object.entries(r.simulators).map(
      ([k, x]) => `RSS of ${k} (pid ${x.pid}): ${x.samples.map(at).join(', ')}`,
    ),
    r.lostExamples.length > 0 && `\nLost legacy messages (first ${r.lostExamples.length}): ${lostList}`,
    ...transports.map(([name, t]) => t.polls.lastError && `\nLast ${name} poll error: ${t.polls.lastError}`),
    ...transports.map(
      ([name, t]) => t.odd.count > 0 && `\n${name}: ${t.odd.count} unexpected answers (last: ${t.odd.last})`,
    ),
  ];
  return `${lines.filter((l) => typeof l === 'string').join('\n')}\n`;
}
