import { checksTable, machineLine, table, writeReportFiles } from '../results/write-results';
import { RSS_HEADROOM_MB } from './config';
import type { AbuseReport } from './run-abuse';

export function abuseMarkdown(report: AbuseReport, title = 'Abuse run'): string {
  const lines = [
    `# ${title} (${report.mode})`,
    '',
    `${machineLine(report.machine)}; ${(report.durationMs / 1000).toFixed(0)} s.`,
    'Each phase runs against fresh simulator processes (the built CLI on loopback, LOG_LEVEL info).',
    `\`/health\` is probed every ${report.config.probeEveryMs} ms from a separate process; RSS is read from /proc/<pid>/status every ${report.config.rssEveryMs} ms; log lines are the simulator's stdout and stderr lines, counted per second, and warn-or-worse lines per cause (the log line's \`msg\`) per second.`,
    '',
    report.failures.length === 0
      ? '**Every target met.**'
      : `**${report.failures.length} targets missed:** ${report.failures.join('; ')}.`,
    '',
    ...table(
      [
        'Phase',
        'Simulator',
        '/health p99 (max)',
        'RSS start / peak / end',
        'Log lines (total, max/s, max/s one cause)',
      ],
      report.phases.flatMap((p) =>
        p.processes.map(({ simulator, health: h, rss, logs }) => [
          ...[`${p.id}. ${p.title}`, simulator, `${h.p99} ms (${h.max} ms)`],
          `${rss.startMb} / ${rss.peakMb} / ${rss.endMb} MB`,
          `${logs.total}, ${logs.maxPerSecond}, ${logs.maxPerSecondOneCause}`,
        ]),
      ),
    ),
  ];
  for (const p of report.phases) {
    const budget = `RSS budget: ${RSS_HEADROOM_MB} MB of headroom for V8 and socket buffers + ${p.rssBudget.mb} MB (${p.rssBudget.why}).`;
    lines.push('', `## ${p.id}. ${p.title} (${(p.durationMs / 1000).toFixed(1)} s)`, '');
    lines.push(...checksTable(p.verdicts), '', budget, ...(p.notes ?? []).flatMap((n) => ['', `Note: ${n}`]));
  }
  return `${lines.join('\n')}\n`;
}

/** Writes <name>.md and <name>.json into dir; returns their paths. */
export const writeAbuseReport = (dir: string, name: string, report: AbuseReport, title?: string) =>
  writeReportFiles(dir, name, abuseMarkdown(report, title), report);
