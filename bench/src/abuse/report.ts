import { writeReportFiles } from '../results/write-results';
import type { AbuseReport } from './run-abuse';
import { RSS_HEADROOM_MB } from './types';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function abuseMarkdown(report: AbuseReport, title = 'Abuse run'): string {
  const m = report.machine;
  const lines = [
    `# ${title} (${report.mode})`,
    '',
    `${m.date}; ${m.cores} cores ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; ${(report.durationMs / 1000).toFixed(0)} s.`,
    'Each phase runs against fresh simulator processes (the built CLI on loopback, LOG_LEVEL info).',
    `\`/health\` is probed every ${report.config.probeEveryMs} ms from a separate process; RSS is read from /proc/<pid>/status every ${report.config.rssEveryMs} ms; log lines are the simulator's stdout and stderr lines, counted per second, and warn-or-worse lines per cause (the log line's \`msg\`) per second.`,
    '',
    report.failures.length === 0
      ? '**Every target met.**'
      : `**${report.failures.length} targets missed:** ${report.failures.map(cell).join('; ')}.`,
    '',
    '| Phase | Simulator | /health p99 (max) | RSS start / peak / end | Log lines (total, max/s, max/s one cause) |',
    '|---|---|---|---|---|',
  ];
  for (const p of report.phases) {
    for (const proc of p.processes) {
      lines.push(
        `| ${p.id}. ${p.title} | ${proc.simulator} | ${proc.health.p99} ms (${proc.health.max} ms) | ${proc.rss.startMb} / ${proc.rss.peakMb} / ${proc.rss.endMb} MB | ${proc.logs.total}, ${proc.logs.maxPerSecond}, ${proc.logs.maxPerSecondOneCause} |`,
      );
    }
  }
  for (const p of report.phases) {
    lines.push(
      '',
      `## ${p.id}. ${p.title} (${(p.durationMs / 1000).toFixed(1)} s)`,
      '',
      '| Check | Target | Measured | Result |',
      '|---|---|---|---|',
      ...p.verdicts.map(
        (v) => `| ${cell(v.name)} | ${cell(v.target)} | ${cell(v.value)} | **${v.pass ? 'PASS' : 'FAIL'}** |`,
      ),
      '',
      `RSS budget: ${RSS_HEADROOM_MB} MB of headroom for V8 and socket buffers + ${p.rssBudget.mb} MB (${p.rssBudget.why}).`,
    );
    for (const note of p.notes ?? []) lines.push('', `Note: ${cell(note)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes <name>.md and <name>.json into dir; returns their paths. */
export function writeAbuseReport(
  dir: string,
  name: string,
  report: AbuseReport,
  title?: string,
): { markdown: string; json: string } {
  return writeReportFiles(dir, name, abuseMarkdown(report, title), report);
}
