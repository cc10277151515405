import { round, type Distribution } from '../lib/stats';
import type { BroadcastLedger, DeliveryCounts } from './ledger';
import type { Check } from '../types';
import type { RssFigures, SoakReport, TransientFigures } from './report';

/** The soak's figures from its ledgers and samples, and its verdicts against the targets. */

/** The targets of the issue: RSS flat after warm-up, outside probe p99 under 100 ms. */
export const RSS_GROWTH_LIMIT = 1.2;
export const PROBE_P99_LIMIT_MS = 100;

export function rssFigures(
  pid: number,
  samples: Array<{ atMs: number; kb: number }>,
  warmUpMs: number,
  loadMs: number,
): RssFigures {
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
    endKb: end?.kb ?? Number.NaN,
    drainedKb: samples.at(-1)?.kb ?? Number.NaN,
  };
}

export function roundDistribution(d: Distribution): Distribution {
  return { count: d.count, p50: round(d.p50), p99: round(d.p99), mean: round(d.mean), max: round(d.max) };
}

export function transientFigures(ledger: BroadcastLedger): TransientFigures {
  const c: DeliveryCounts = ledger.counts;
  return {
    clients: ledger.clients,
    deliveries: c.deliveries,
    missing: ledger.missing(),
    duplicated: c.duplicated,
    foreign: c.foreign,
    corrupt: c.corrupt,
    disconnects: ledger.disconnects,
    perClient: ledger.deliveriesPerClient(),
  };
}

export function verdicts(report: Omit<SoakReport, 'verdicts' | 'pass'>): Check[] {
  const t = report.totals;
  const postFailures = Object.values(report.posted).reduce((sum, p) => sum + p.failed, 0);
  const altered =
    report.legacyDurable.corrupt +
    report.jsonDurable.corrupt +
    report.jsonDurable.outOfOrder +
    report.legacyStomp.corrupt +
    report.jsonEventStream.corrupt;
  const list: Check[] = [
    {
      name: 'posts accepted',
      target: '0 failed',
      value: `${postFailures} failed of ${t.posted}`,
      pass: postFailures === 0,
    },
    {
      name: 'durable messages lost',
      target: '0',
      value: `${t.lost} (legacy ${report.legacyDurable.lost}, JSON ${report.jsonDurable.lost})`,
      pass: t.lost === 0,
    },
    {
      name: 'deliveries duplicated',
      target: '0',
      value: `${t.duplicated} (legacy listen ${report.legacyDurable.duplicated}, JSON /events ${report.jsonDurable.duplicated}, STOMP ${report.legacyStomp.duplicated}, event-stream ${report.jsonEventStream.duplicated})`,
      pass: t.duplicated === 0,
    },
    {
      name: 'foreign-channel deliveries',
      target: '0',
      value: `${t.foreign} (legacy listen ${report.legacyDurable.foreign}, JSON /events ${report.jsonDurable.foreign}, STOMP ${report.legacyStomp.foreign}, event-stream ${report.jsonEventStream.foreign})`,
      pass: t.foreign === 0,
    },
    { name: 'out of order or altered deliveries', target: '0', value: String(altered), pass: altered === 0 },
    {
      name: 'transient messages missed by connected clients',
      target: '0',
      value: `${t.transientMissing} (STOMP ${report.legacyStomp.missing}, event-stream ${report.jsonEventStream.missing}; disconnects ${report.legacyStomp.disconnects + report.jsonEventStream.disconnects})`,
      pass: t.transientMissing === 0,
    },
  ];
  for (const [name, rss] of Object.entries(report.rss)) {
    const growth = rss.endKb / rss.warmUpKb;
    list.push({
      name: `${name} RSS flat after warm-up`,
      target: `end <= ${RSS_GROWTH_LIMIT}x after warm-up`,
      value: `${(rss.warmUpKb / 1024).toFixed(1)} -> ${(rss.endKb / 1024).toFixed(1)} MB (${round(growth)}x)`,
      pass: growth <= RSS_GROWTH_LIMIT,
    });
  }
  for (const [name, probe] of Object.entries(report.probe)) {
    list.push({
      name: `${name} /health probe p99`,
      target: `< ${PROBE_P99_LIMIT_MS} ms`,
      value: `${probe.p99} ms after warm-up (${probe.count} probes, ${probe.failed} failed; whole run ${probe.wholeRun.p99} ms)`,
      pass: probe.p99 < PROBE_P99_LIMIT_MS && probe.failed === 0 && probe.count > 0,
    });
  }
  return list;
}
