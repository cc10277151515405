import type { Report } from '../types';
import { statusLabel } from './status-label';

/** A markdown report for a pull request or a ticket: the table, then the evidence of each check. */
export function markdownReport(report: Report): string {
  const cell = (value: string) => value.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const out = [
    `# racedata-sim certify ${report.suite}`,
    '',
    `Client: \`${report.command}\`, started ${report.startedAt}, ${(report.durationMs / 1000).toFixed(1)} s. ` +
      `${report.passed} passed, ${report.failed} required failed.`,
  ];
  if (report.aborted !== undefined) out.push('', `**Ended early:** ${cell(report.aborted)}`);
  if (report.foreign !== undefined) {
    out.push(
      '',
      `**Foreign traffic:** ${report.foreign.count} request(s) or upgrade(s) not from the certified client, not graded. The first:`,
      '',
      ...report.foreign.sample.map((e) => `- ${e.at} ${cell(e.what)}`),
    );
  }
  out.push('', '| check | status | summary |', '|---|---|---|');
  for (const c of report.checks) out.push(`| \`${c.id}\` | ${statusLabel(c)} | ${cell(c.summary)} |`);
  for (const c of report.checks) {
    if (c.evidence.length === 0) continue;
    out.push('', `## ${c.id}: ${statusLabel(c)}`, '');
    for (const e of c.evidence) out.push(`- ${e.at} ${cell(e.what)}`);
  }
  return `${out.join('\n')}\n`;
}
