import { describeTimings } from '../timings';
import type { ProgressEvent } from '../run/progress';
import type { Report } from '../types';
import { statusLabel } from './status-label';

/** One progress line while a run goes, or undefined for events the terminal does not show. */
export function progressLine(event: ProgressEvent): string | undefined {
  switch (event.type) {
    case 'suite-start': {
      const lines = [`certify ${event.suite}: ${describeTimings(event.timings)}`];
      if (event.attach) {
        lines.push('waiting for a client; start it with these variables:');
        for (const [name, value] of Object.entries(event.variables))
          lines.push(`  export ${name}=${quote(value)}`);
      } else {
        lines.push(`  client started with RACEDATA_URL=${event.variables.RACEDATA_URL ?? ''}`);
      }
      if (event.console !== undefined) lines.push(`  console: ${event.console}`);
      return lines.join('\n');
    }
    case 'client-ready':
      return `  client's first request after ${event.afterMs} ms`;
    case 'scenario-start':
      return `  ${event.name} (${event.checks.map((c) => c.id).join(', ')}) ...`;
    case 'check':
      return `    ${statusLabel(event.result).padEnd(16)} ${event.result.id}: ${event.result.summary}`;
    case 'foreign':
      return event.final ? `  ${foreignLine(event.count)}${sampleText(event.sample[0])}` : undefined;
    case 'suite-end':
      return event.aborted === undefined ? undefined : `  ${event.suite} ended early: ${event.aborted}`;
  }
}

/** The table printed at the end: id, status, summary, then the totals and why it ended early. */
export function reportTable(report: Report): string {
  const rows = report.checks.map((c) => [c.id, statusLabel(c), c.summary] as const);
  const idWidth = Math.max(5, ...rows.map((r) => r[0].length));
  const statusWidth = Math.max(6, ...rows.map((r) => r[1].length));
  const line = (id: string, status: string, summary: string) =>
    `${id.padEnd(idWidth)}  ${status.padEnd(statusWidth)}  ${summary}`.trimEnd();
  const out = [
    line('check', 'status', 'summary'),
    line('-'.repeat(idWidth), '-'.repeat(statusWidth), '-------'),
  ];
  for (const [id, status, summary] of rows) out.push(line(id, status, summary));
  if (rows.length === 0) out.push('(no checks were played)');
  const counts = (['pass', 'fail', 'warn', 'skip'] as const)
    .map((s) => `${report.checks.filter((c) => c.status === s).length} ${s}`)
    .join(', ');
  out.push(
    '',
    `${report.suite}: ${counts}; ${report.failed} required failed; ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  if (report.aborted !== undefined) out.push(`ended early: ${report.aborted}`);
  if (report.foreign !== undefined)
    out.push(`${foreignLine(report.foreign.count)}${sampleText(report.foreign.sample[0])}`);
  return `${out.join('\n')}\n`;
}

/** What the terminal says of traffic that was not the certified client's. */
export function foreignLine(count: number): string {
  return `foreign traffic: ${count} request(s) or upgrade(s) not from the certified client (another process on the port), not graded`;
}

function sampleText(first: { readonly what: string } | undefined): string {
  return first === undefined ? '' : `; the first: ${first.what}`;
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
