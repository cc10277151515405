import type { PollClients } from '../clients/polls';
import { distribution, round } from '../harness/stats';
import type { ProbeResult } from '../harness/watch';
import { machineInfo } from '../machine';
import { writeReportFiles } from '../results/write-results';
import { check } from '../types';
import type { OddAnswers } from './clients';
import { KINDS, type MessageKind, type SoakConfig } from './config';
import { spread, type PostLog, type ReceiptLedger } from './ledger';

/** The posts of each kind, and a ledger of the receipts of each transport. */
export interface Ledgers {
  readonly posts: Record<MessageKind, PostLog>;
  readonly queue: ReceiptLedger;
  readonly events: ReceiptLedger;
  readonly stomp: ReceiptLedger;
  readonly stream: ReceiptLedger;
}

/** What the run saw besides the ledgers. */
export interface Observed {
  readonly listen: PollClients;
  readonly events: PollClients;
  readonly odd: OddAnswers;
  readonly pids: Record<string, number>;
  readonly rss: Record<string, Array<{ atMs: number; kb: number }>>;
  readonly probes: ProbeResult;
  /** Date.now() at the end of the warm-up: probes sent before it are left out of the verdict. */
  readonly warmUpEndWall: number;
  readonly loadEndMs: number;
  readonly loadEventLoopP99Ms: number;
  readonly drainMs: number;
  readonly drainComplete: boolean;
  readonly durationMs: number;
}

/** The targets: RSS flat after warm-up, outside probe p99 under 100 ms. */
const RSS_GROWTH_LIMIT = 1.2;
const PROBE_P99_LIMIT_MS = 100;

const rounded = (values: readonly number[] | Float64Array) => {
  const d = distribution(values);
  return { count: d.count, p50: round(d.p50), p99: round(d.p99), mean: round(d.mean), max: round(d.max) };
};

function rssFigures(
  pid: number,
  samples: Array<{ atMs: number; kb: number }>,
  warmUpMs: number,
  loadMs: number,
) {
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

/** Counts every receipt check shares: deliveries, duplicated, foreign channel, corrupt. */
const counted = ({ counts: c }: ReceiptLedger) => ({ ...c });

const transient = (ledger: ReceiptLedger) => ({
  ...{ ...counted(ledger), clients: ledger.receivers, missing: ledger.missing() },
  ...{ disconnects: ledger.disconnects },
  perClient: { received: spread(Array.from(ledger.perReceiver)), expected: spread(ledger.expected()) },
});

const durable = (ledger: ReceiptLedger, clients: PollClients, lost: number) => ({
  ...{ ...counted(ledger), expected: ledger.expected().reduce((a, b) => a + b, 0), lost },
  ...{ pollErrors: clients.errors, ...(clients.lastError && { lastPollError: clients.lastError }) },
});

/** The soak's figures from its ledgers and samples, and its verdicts against the targets. */
export function soakReport(config: SoakConfig, ledgers: Ledgers, seen: Observed) {
  const { posts, queue, events } = ledgers;
  const lostExamples: Array<{ seq: number; user: string; target: string }> = [];
  const lost = { legacy: queue.missing(lostExamples), json: events.missing() };
  const legacyDurable = {
    ...durable(queue, seen.listen, lost.legacy),
    hangUps: seen.listen.hangUps,
    lostExamples,
  };
  const jsonDurable = { ...durable(events, seen.events, lost.json), outOfOrder: events.outOfOrder };
  const [legacyStomp, jsonEventStream] = [transient(ledgers.stomp), transient(ledgers.stream)];
  const all = [legacyDurable, jsonDurable, legacyStomp, jsonEventStream];
  const sum = (key: 'duplicated' | 'foreign' | 'corrupt') => all.reduce((n, t) => n + t[key], 0);
  const totals = {
    ...{ posted: KINDS.reduce((n, k) => n + posts[k].count, 0), lost: lost.legacy + lost.json },
    ...{ duplicated: sum('duplicated'), foreign: sum('foreign') },
    transientMissing: legacyStomp.missing + jsonEventStream.missing,
  };
  const kinds = Object.keys(seen.pids);
  const rss = Object.fromEntries(
    kinds.map((k) => [
      k,
      rssFigures(seen.pids[k] as number, seen.rss[k] ?? [], config.warmUpMs, seen.loadEndMs),
    ]),
  );
  const probe = Object.fromEntries(
    kinds.map((kind) => {
      const p = seen.probes[kind] ?? { samples: [], sentAt: [], failed: 0 };
      const afterWarmUp = p.samples.filter((_, k) => (p.sentAt[k] ?? 0) >= seen.warmUpEndWall);
      return [kind, { ...rounded(afterWarmUp), failed: p.failed, wholeRun: rounded(p.samples) }];
    }),
  );
  const tally = (p: PostLog) => ({ posted: p.count, accepted: p.count - p.failed, failed: p.failed });
  const posted = Object.fromEntries(KINDS.map((k) => [k, tally(posts[k])]));
  const failed = KINDS.reduce((n, k) => n + posts[k].failed, 0);
  const altered = sum('corrupt') + jsonDurable.outOfOrder;
  const by = (key: 'duplicated' | 'foreign') =>
    `legacy listen ${legacyDurable[key]}, JSON /events ${jsonDurable[key]}, STOMP ${legacyStomp[key]}, event-stream ${jsonEventStream[key]}`;
  const disconnects = legacyStomp.disconnects + jsonEventStream.disconnects;
  const verdicts = [
    check('posts accepted', '0 failed', `${failed} failed of ${totals.posted}`, failed === 0),
    check(
      'durable messages lost',
      '0',
      `${totals.lost} (legacy ${lost.legacy}, JSON ${lost.json})`,
      !totals.lost,
    ),
    check(
      'deliveries duplicated',
      '0',
      `${totals.duplicated} (${by('duplicated')})`,
      totals.duplicated === 0,
    ),
    check('foreign-channel deliveries', '0', `${totals.foreign} (${by('foreign')})`, totals.foreign === 0),
    check('out of order or altered deliveries', '0', String(altered), altered === 0),
    check(
      ...(['transient messages missed by connected clients', '0'] as const),
      `${totals.transientMissing} (STOMP ${legacyStomp.missing}, event-stream ${jsonEventStream.missing}; disconnects ${disconnects})`,
      totals.transientMissing === 0,
    ),
    ...Object.entries(rss).map(([name, r]) => {
      const growth = `${(r.warmUpKb / 1024).toFixed(1)} -> ${(r.endKb / 1024).toFixed(1)} MB (${round(r.endKb / r.warmUpKb)}x)`;
      const ok = r.endKb / r.warmUpKb <= RSS_GROWTH_LIMIT;
      return check(`${name} RSS flat after warm-up`, `end <= ${RSS_GROWTH_LIMIT}x after warm-up`, growth, ok);
    }),
    ...Object.entries(probe).map(([name, p]) => {
      const value = `${p.p99} ms after warm-up (${p.count} probes, ${p.failed} failed; whole run ${p.wholeRun.p99} ms)`;
      const ok = p.p99 < PROBE_P99_LIMIT_MS && p.failed === 0 && p.count > 0;
      return check(`${name} /health probe p99`, `< ${PROBE_P99_LIMIT_MS} ms`, value, ok);
    }),
  ];
  const mode = config.quick ? ('quick' as const) : ('full' as const);
  return {
    ...{ mode, machine: machineInfo(), settings: config, posted, legacyDurable, jsonDurable, legacyStomp },
    ...{ jsonEventStream, oddAnswers: { ...seen.odd }, totals },
    /** post -> receipt in ms, per transport. */
    latency: {
      'legacy listen (Durable)': rounded(queue.latency.values()),
      'legacy STOMP (NonDurable)': rounded(ledgers.stomp.latency.values()),
      'JSON /events (durable)': rounded(events.latency.values()),
      'JSON event-stream (transient)': rounded(ledgers.stream.latency.values()),
    } as Record<string, ReturnType<typeof rounded>>,
    ...{ rss, probe, loadEventLoopP99Ms: seen.loadEventLoopP99Ms, drainMs: Math.round(seen.drainMs) },
    ...{ drainComplete: seen.drainComplete, verdicts, pass: verdicts.every((v) => v.pass) },
    durationMs: seen.durationMs,
  };
}

export type SoakReport = ReturnType<typeof soakReport>;

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
const ms = (v = Number.NaN) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'n/a');
/** A markdown table's header from its cells, `|`-separated. */
const head = (cells: string) => [`| ${cells} |`, `|${cells.split('|').fill('---').join('|')}|`];
const row = (...cells: unknown[]) => `| ${cells.join(' | ')} |`;

export function soakMarkdown(r: SoakReport): string {
  const { settings: s, machine: m, legacyDurable: ld, jsonDurable: jd } = r;
  const few = (x: { min: number; median: number; max: number }) => `${x.min} / ${x.median} / ${x.max}`;
  const transient = (name: string, t: SoakReport['legacyStomp']) => {
    const [got, want] = [few(t.perClient.received), few(t.perClient.expected)];
    return row(name, t.clients, got, want, t.missing, t.duplicated, t.foreign, t.disconnects);
  };
  const hangUps =
    s.hangUpStyle === 'close' ? 'closing their side, reading what was sent' : 'resetting at once';
  const at = (v: { atMs: number; kb: number }) => `${Math.round(v.atMs / 1000)}s ${mb(v.kb)}`;
  const lostList = ld.lostExamples.map((l) => `#${l.seq} to ${l.target} for ${l.user}`).join(', ');
  const lines = [
    `# Soak run (${r.mode})\n\n${m.date}; ${m.cores} cores ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}.`,
    `Load ${s.loadMs / 1000} s (warm-up ${s.warmUpMs / 1000} s), then a final drain of ${(r.drainMs / 1000).toFixed(1)} s (${r.drainComplete ? 'everything arrived' : 'stopped at its limit'}); ${s.postsPerSecond} posts/s of each kind; LONG_POLL_TIMEOUT_MS ${s.longPollTimeoutMs}.`,
    `Clients: ${Object.entries(s.clients).map(([k, v]) => `${v} ${k}`)}; ${s.legacyUsers} legacy users, ${s.jsonUsers} JSON users; ${Math.round(s.hangUpShare * 100)}% of the legacy pollers hang up on half their polls, half of those 0-20 ms after sending (destroying the socket) and half at random mid-poll (${hangUps}).`,
    '\n## Verdict\n',
    ...head('Check | Target | Value | Result'),
    ...r.verdicts.map((v) => row(v.name, v.target, v.value, `**${v.pass ? 'PASS' : 'MISS'}**`)),
    '\n## Messages\n',
    ...head('Kind | Posted | Accepted | Failed'),
    ...Object.entries(r.posted).map(([k, p]) => row(k, p.posted, p.accepted, p.failed)),
    '',
    ...head(
      'Durable | Expected | Received | Lost | Duplicated | Foreign channel | Out of order / altered | Notes',
    ),
    `| legacy listen | ${ld.expected} | ${ld.deliveries} | ${ld.lost} | ${ld.duplicated} | ${ld.foreign} | 0 / ${ld.corrupt} | ${ld.hangUps} hang-ups, ${ld.pollErrors} poll errors |`,
    `| JSON /events | ${jd.expected} | ${jd.deliveries} | ${jd.lost} | ${jd.duplicated} | ${jd.foreign} | ${jd.outOfOrder} / ${jd.corrupt} | ${jd.pollErrors} poll errors |`,
    '',
    ...head(
      'Transient | Clients | Received per client | Expected | Missing | Duplicated | Foreign | Disconnects',
    ),
    transient('legacy STOMP', r.legacyStomp),
    transient('JSON event-stream', r.jsonEventStream),
    '\n## Delivery latency (post sent -> receipt read, in the load process)\n',
    ...head('Transport | Deliveries | p50 | p99 | max'),
    ...Object.entries(r.latency).map(([k, d]) => row(k, d.count, ms(d.p50), ms(d.p99), ms(d.max))),
    `\nLoad process event-loop delay p99: ${ms(r.loadEventLoopP99Ms)}.`,
    '\n## Simulator processes (GET /health probed from a separate process every 100 ms)\n',
    ...head(
      'Simulator | RSS start | after warm-up | peak | end of load | after drain | /health p50 | p99 | max | failed',
    ),
    ...Object.entries(r.rss).map(([k, x]) => {
      const p = r.probe[k];
      const p99 = `${ms(p?.p99)} (whole run ${ms(p?.wholeRun.p99)})`;
      return `| ${k} | ${[x.startKb, x.warmUpKb, x.peakKb, x.endKb, x.drainedKb].map(mb).join(' | ')} | ${ms(p?.p50)} | ${p99} | ${ms(p?.max)} | ${p?.failed} |`;
    }),
    '',
    ...Object.entries(r.rss).map(([k, x]) => `RSS of ${k} (pid ${x.pid}): ${x.samples.map(at).join(', ')}`),
    ld.lostExamples.length > 0 && `\nLost legacy messages (first ${ld.lostExamples.length}): ${lostList}`,
    ld.lastPollError && `\nLast legacy listen poll error: ${ld.lastPollError}`,
    jd.lastPollError && `\nLast JSON /events poll error: ${jd.lastPollError}`,
    r.oddAnswers.count > 0 && `\nUnexpected answers: ${r.oddAnswers.count} (last: ${r.oddAnswers.last})`,
  ];
  return `${lines.filter((l) => typeof l === 'string').join('\n')}\n`;
}

/** Writes soak-<mode>-<time>.json and .md into dir; returns their paths. */
export function writeSoakReport(dir: string, report: SoakReport): { json: string; markdown: string } {
  const name = `soak-${report.mode}-${report.machine.date.replace(/[:.]/g, '-')}`;
  return writeReportFiles(dir, name, soakMarkdown(report), report);
}
