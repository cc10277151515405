import { distribution, round, type Distribution } from '../harness/stats';
import type { PollClients } from '../clients/polls';
import { machineInfo } from '../machine';
import { check } from '../types';
import type { OddAnswers } from './clients';
import { KINDS, type SoakConfig } from './config';
import type { ProbeResult } from './health-probe';
import { spread, type Ledgers, type ReceiptLedger } from './ledger';

/** The soak's figures from its ledgers and samples, and its verdicts against the targets. */

/** The targets of the issue: RSS flat after warm-up, outside probe p99 under 100 ms. */
const RSS_GROWTH_LIMIT = 1.2;
const PROBE_P99_LIMIT_MS = 100;

const PROBE_LABEL =
  'GET /health probe latency after warm-up (from a separate process; the simulators expose no event-loop figure)';

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
}

function rssFigures(
  pid: number,
  samples: Array<{ atMs: number; kb: number }>,
  warmUpMs: number,
  loadMs: number,
) {
  const kbs = samples.map((s) => s.kb);
  const warm = samples.find((s) => s.atMs >= warmUpMs) ?? samples.at(-1);
  // The end of the load, not after the drain: compared under the same load as the warm-up figure.
  const end = samples.filter((s) => s.atMs <= loadMs + 1000).at(-1);
  return {
    pid,
    samples,
    startKb: samples[0]?.kb ?? Number.NaN,
    warmUpKb: warm?.kb ?? Number.NaN,
    peakKb: kbs.length > 0 ? Math.max(...kbs) : Number.NaN,
    /** At the end of the load (what the flat-RSS verdict compares with the warm-up figure). */
    endKb: end?.kb ?? Number.NaN,
    /** After the final drain, with the load gone. */
    drainedKb: samples.at(-1)?.kb ?? Number.NaN,
  };
}

const rounded = (values: readonly number[] | Float64Array): Distribution => {
  const d = distribution(values);
  return { count: d.count, p50: round(d.p50), p99: round(d.p99), mean: round(d.mean), max: round(d.max) };
};

function transientFigures(ledger: ReceiptLedger) {
  const c = ledger.counts;
  return {
    clients: ledger.receivers,
    deliveries: c.deliveries,
    missing: ledger.missing(),
    duplicated: c.duplicated,
    foreign: c.foreign,
    corrupt: c.corrupt,
    disconnects: ledger.disconnects,
    perClient: { received: spread(Array.from(ledger.perReceiver)), expected: spread(ledger.expected()) },
  };
}

export type TransientFigures = ReturnType<typeof transientFigures>;
export type RssFigures = ReturnType<typeof rssFigures>;

/** Everything the report holds but its verdicts. */
export function soakFigures(config: SoakConfig, ledgers: Ledgers, seen: Observed) {
  const { posts, queue, events } = ledgers;
  const lostExamples: Array<{ seq: number; user: string; target: string }> = [];
  const queueLost = queue.missing(lostExamples);
  const eventsLost = events.missing();
  const legacyStomp = transientFigures(ledgers.stomp);
  const jsonEventStream = transientFigures(ledgers.stream);
  const qc = queue.counts;
  const ec = events.counts;
  const probe = Object.fromEntries(
    Object.keys(seen.pids).map((kind) => {
      const p = seen.probes[kind];
      const afterWarmUp = (p?.samples ?? []).filter((_, k) => (p?.sentAt[k] ?? 0) >= seen.warmUpEndWall);
      return [kind, { ...rounded(afterWarmUp), failed: p?.failed ?? 0, wholeRun: rounded(p?.samples ?? []) }];
    }),
  );
  return {
    mode: config.quick ? ('quick' as const) : ('full' as const),
    machine: machineInfo(),
    settings: {
      loadMs: config.loadMs,
      warmUpMs: config.warmUpMs,
      drainMs: config.drainMs,
      postsPerSecondEachKind: config.postsPerSecond,
      longPollTimeoutMs: config.longPollTimeoutMs,
      clients: { ...config.clients } as Record<string, number>,
      legacyUsers: config.legacyUsers,
      jsonUsers: config.jsonUsers,
      hangUpShare: config.hangUpShare,
      hangUpStyle: config.hangUpStyle,
    },
    posted: Object.fromEntries(
      KINDS.map((k) => [
        k,
        { posted: posts[k].count, accepted: posts[k].count - posts[k].failed, failed: posts[k].failed },
      ]),
    ),
    legacyDurable: {
      expected: queue.expected().reduce((sum, n) => sum + n, 0),
      deliveries: qc.deliveries,
      lost: queueLost,
      duplicated: qc.duplicated,
      foreign: qc.foreign,
      corrupt: qc.corrupt,
      hangUps: seen.listen.hangUps,
      pollErrors: seen.listen.errors,
      ...(seen.listen.lastError !== undefined && { lastPollError: seen.listen.lastError }),
      /** The first few lost (message, user) pairs: sequence number, user key, posted target. */
      lostExamples,
    },
    jsonDurable: {
      expected: events.expected().reduce((sum, n) => sum + n, 0),
      deliveries: ec.deliveries,
      lost: eventsLost,
      duplicated: ec.duplicated,
      outOfOrder: events.outOfOrder,
      foreign: ec.foreign,
      corrupt: ec.corrupt,
      pollErrors: seen.events.errors,
      ...(seen.events.lastError !== undefined && { lastPollError: seen.events.lastError }),
    },
    legacyStomp,
    jsonEventStream,
    oddAnswers: { ...seen.odd },
    totals: {
      posted: KINDS.reduce((sum, k) => sum + posts[k].count, 0),
      lost: queueLost + eventsLost,
      duplicated: qc.duplicated + ec.duplicated + legacyStomp.duplicated + jsonEventStream.duplicated,
      foreign: qc.foreign + ec.foreign + legacyStomp.foreign + jsonEventStream.foreign,
      transientMissing: legacyStomp.missing + jsonEventStream.missing,
    },
    /** post -> receipt in ms, per transport. */
    latency: {
      'legacy listen (Durable)': rounded(queue.latency.values()),
      'legacy STOMP (NonDurable)': rounded(ledgers.stomp.latency.values()),
      'JSON /events (durable)': rounded(events.latency.values()),
      'JSON event-stream (transient)': rounded(ledgers.stream.latency.values()),
    } as Record<string, Distribution>,
    rss: Object.fromEntries(
      Object.entries(seen.pids).map(([kind, pid]) => [
        kind,
        rssFigures(pid, seen.rss[kind] ?? [], config.warmUpMs, seen.loadEndMs),
      ]),
    ),
    /** GET /health latency from a separate prober process, in ms. */
    probe,
    probeLabel: PROBE_LABEL,
    /** The load process's own event-loop delay p99 (ms): how far to trust its latency figures. */
    loadEventLoopP99Ms: seen.loadEventLoopP99Ms,
    drainMs: Math.round(seen.drainMs),
    drainComplete: seen.drainComplete,
  };
}

export type SoakFigures = ReturnType<typeof soakFigures>;

export function verdicts(report: SoakFigures) {
  const t = report.totals;
  const { legacyDurable: ld, jsonDurable: jd, legacyStomp: ls, jsonEventStream: je } = report;
  const postFailures = Object.values(report.posted).reduce((sum, p) => sum + p.failed, 0);
  const altered = ld.corrupt + jd.corrupt + jd.outOfOrder + ls.corrupt + je.corrupt;
  const byTransport = (key: 'duplicated' | 'foreign') =>
    `legacy listen ${ld[key]}, JSON /events ${jd[key]}, STOMP ${ls[key]}, event-stream ${je[key]}`;
  return [
    check('posts accepted', '0 failed', `${postFailures} failed of ${t.posted}`, postFailures === 0),
    check('durable messages lost', '0', `${t.lost} (legacy ${ld.lost}, JSON ${jd.lost})`, t.lost === 0),
    check('deliveries duplicated', '0', `${t.duplicated} (${byTransport('duplicated')})`, t.duplicated === 0),
    check('foreign-channel deliveries', '0', `${t.foreign} (${byTransport('foreign')})`, t.foreign === 0),
    check('out of order or altered deliveries', '0', String(altered), altered === 0),
    check(
      'transient messages missed by connected clients',
      '0',
      `${t.transientMissing} (STOMP ${ls.missing}, event-stream ${je.missing}; disconnects ${ls.disconnects + je.disconnects})`,
      t.transientMissing === 0,
    ),
    ...Object.entries(report.rss).map(([name, rss]) => {
      const growth = rss.endKb / rss.warmUpKb;
      return check(
        `${name} RSS flat after warm-up`,
        `end <= ${RSS_GROWTH_LIMIT}x after warm-up`,
        `${(rss.warmUpKb / 1024).toFixed(1)} -> ${(rss.endKb / 1024).toFixed(1)} MB (${round(growth)}x)`,
        growth <= RSS_GROWTH_LIMIT,
      );
    }),
    ...Object.entries(report.probe).map(([name, probe]) =>
      check(
        `${name} /health probe p99`,
        `< ${PROBE_P99_LIMIT_MS} ms`,
        `${probe.p99} ms after warm-up (${probe.count} probes, ${probe.failed} failed; whole run ${probe.wholeRun.p99} ms)`,
        probe.p99 < PROBE_P99_LIMIT_MS && probe.failed === 0 && probe.count > 0,
      ),
    ),
  ];
}
