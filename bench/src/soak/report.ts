import { writeReportFiles } from '../results/write-results';
import type { Check } from '../types';
import type { RssFigures, SoakFigures, TransientFigures } from './figures';

export type SoakReport = SoakFigures & {
  readonly verdicts: readonly Check[];
  readonly pass: boolean;
  readonly durationMs: number;
};

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'n/a');

function transientRow(name: string, t: TransientFigures): string {
  const r = t.perClient.received;
  const e = t.perClient.expected;
  return `| ${name} | ${t.clients} | ${r.min} / ${r.median} / ${r.max} | ${e.min} / ${e.median} / ${e.max} | ${t.missing} | ${t.duplicated} | ${t.foreign} | ${t.disconnects} |`;
}

function soakMarkdown(report: SoakReport): string {
  const s = report.settings;
  const lines = [
    `# Soak run (${report.mode})`,
    '',
    `${report.machine.date}; ${report.machine.cores} cores ${report.machine.cpuModel}, ${report.machine.memoryGiB} GiB, Node ${report.machine.node}, ${report.machine.platform}.`,
    `Load ${s.loadMs / 1000} s (warm-up ${s.warmUpMs / 1000} s), then a final drain of ${(report.drainMs / 1000).toFixed(1)} s (${report.drainComplete ? 'everything arrived' : 'stopped at its limit'}); ${s.postsPerSecondEachKind} posts/s of each kind; LONG_POLL_TIMEOUT_MS ${s.longPollTimeoutMs}.`,
    `Clients: ${Object.entries(s.clients)
      .map(([k, v]) => `${v} ${k}`)
      .join(
        ', ',
      )}; ${s.legacyUsers} legacy users, ${s.jsonUsers} JSON users; ${Math.round(s.hangUpShare * 100)}% of the legacy pollers hang up on half their polls, half of those 0-20 ms after sending (destroying the socket) and half at random mid-poll (${s.hangUpStyle === 'close' ? 'closing their side and reading what was already sent' : 'resetting the connection at once'}).`,
    '',
    '## Verdict',
    '',
    '| Check | Target | Value | Result |',
    '|---|---|---|---|',
    ...report.verdicts.map(
      (v) => `| ${v.name} | ${v.target} | ${v.value} | **${v.pass ? 'PASS' : 'MISS'}** |`,
    ),
    '',
    '## Messages',
    '',
    '| Kind | Posted | Accepted | Failed |',
    '|---|---|---|---|',
    ...Object.entries(report.posted).map(([k, p]) => `| ${k} | ${p.posted} | ${p.accepted} | ${p.failed} |`),
    '',
    '| Durable | Expected deliveries | Received | Lost | Duplicated | Foreign channel | Out of order / altered | Notes |',
    '|---|---|---|---|---|---|---|---|',
    `| legacy listen | ${report.legacyDurable.expected} | ${report.legacyDurable.deliveries} | ${report.legacyDurable.lost} | ${report.legacyDurable.duplicated} | ${report.legacyDurable.foreign} | 0 / ${report.legacyDurable.corrupt} | ${report.legacyDurable.hangUps} hang-ups, ${report.legacyDurable.pollErrors} poll errors |`,
    `| JSON /events | ${report.jsonDurable.expected} | ${report.jsonDurable.deliveries} | ${report.jsonDurable.lost} | ${report.jsonDurable.duplicated} | ${report.jsonDurable.foreign} | ${report.jsonDurable.outOfOrder} / ${report.jsonDurable.corrupt} | ${report.jsonDurable.pollErrors} poll errors |`,
    '',
    '| Transient | Clients | Received per client (min / median / max) | Expected per client (min / median / max) | Missing | Duplicated | Foreign channel | Disconnects |',
    '|---|---|---|---|---|---|---|---|',
    transientRow('legacy STOMP', report.legacyStomp),
    transientRow('JSON event-stream', report.jsonEventStream),
    '',
    '## Delivery latency (post sent -> receipt read, in the load process)',
    '',
    '| Transport | Deliveries | p50 | p99 | max |',
    '|---|---|---|---|---|',
    ...Object.entries(report.latency).map(
      ([k, d]) => `| ${k} | ${d.count} | ${ms(d.p50)} | ${ms(d.p99)} | ${ms(d.max)} |`,
    ),
    '',
    `Load process event-loop delay p99: ${ms(report.loadEventLoopP99Ms)}.`,
    '',
    '## Simulator processes',
    '',
    `| Simulator | RSS start | RSS after warm-up | RSS peak | RSS end of load | RSS after drain | ${report.probeLabel} p50 | p99 | max | failed |`,
    '|---|---|---|---|---|---|---|---|---|---|',
    ...Object.keys(report.rss).map((k) => {
      const r = report.rss[k] as RssFigures;
      const p = report.probe[k];
      return `| ${k} | ${mb(r.startKb)} | ${mb(r.warmUpKb)} | ${mb(r.peakKb)} | ${mb(r.endKb)} | ${mb(r.drainedKb)} | ${ms(p?.p50 ?? NaN)} | ${ms(p?.p99 ?? NaN)} (whole run ${ms(p?.wholeRun.p99 ?? NaN)}) | ${ms(p?.max ?? NaN)} | ${p?.failed ?? 'n/a'} |`;
    }),
    '',
    ...Object.entries(report.rss).map(
      ([k, r]) =>
        `RSS of ${k} (pid ${r.pid}): ${r.samples.map((x) => `${Math.round(x.atMs / 1000)}s ${mb(x.kb)}`).join(', ')}`,
    ),
  ];
  const lost = report.legacyDurable.lostExamples;
  if (lost.length > 0) {
    lines.push(
      '',
      `Lost legacy messages (first ${lost.length}): ${lost.map((l) => `#${l.seq} to ${l.target} for ${l.user}`).join(', ')}`,
    );
  }
  for (const [name, d] of [
    ['legacy listen', report.legacyDurable],
    ['JSON /events', report.jsonDurable],
  ] as const) {
    if (d.lastPollError) lines.push('', `Last ${name} poll error: ${d.lastPollError}`);
  }
  if (report.oddAnswers.count > 0) {
    lines.push('', `Unexpected answers: ${report.oddAnswers.count} (last: ${report.oddAnswers.last ?? ''})`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes soak-<mode>-<time>.json and .md into dir; returns their paths. */
export function writeSoakReport(dir: string, report: SoakReport): { json: string; markdown: string } {
  const stamp = report.machine.date.replace(/[:.]/g, '-');
  return writeReportFiles(dir, `soak-${report.mode}-${stamp}`, soakMarkdown(report), report);
}
