import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchReport, Comparison, MeasureResult, ProfileSummary } from '../types';
import { beforeAfterMarkdown } from './before-after';

function cell(value: number | null, unit: string): string {
  if (value === null) return 'not measured';
  const text = Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : String(value);
  return unit === '' ? text : `${text} ${unit}`;
}

function baselineNames(measure: MeasureResult): string[] {
  const names: string[] = [];
  for (const row of measure.comparisons) {
    for (const b of row.baselines) if (!names.includes(b.name)) names.push(b.name);
  }
  return names;
}

function table(measure: MeasureResult): string[] {
  const names = baselineNames(measure);
  const labels = [...new Set(measure.comparisons.map((row) => row.ratioLabel))];
  const ratioHeader = `Ratio (${labels.length === 1 ? labels[0] : 'ours / bare'})`;
  const header = ['Scenario', 'Ours', ...names, ratioHeader, 'Target', 'Result', 'Notes'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of measure.comparisons) {
    const byName = new Map(row.baselines.map((b) => [b.name, b]));
    const baselineCells = names.map((n) => {
      const b = byName.get(n);
      if (!b) return '—';
      return b.note ? `${cell(b.value, row.unit)} (${b.note})` : cell(b.value, row.unit);
    });
    const spread = row.ratioSpread ? ` (${row.ratioSpread[0]}–${row.ratioSpread[1]})` : '';
    const ratio = row.ratio === null ? '—' : `${row.ratio}${spread}`;
    const cells = [
      row.scenario,
      cell(row.ours, row.unit),
      ...baselineCells,
      ratio,
      row.target,
      `**${row.verdict}**`,
      row.note ?? '',
    ];
    lines.push(`| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
  }
  return lines;
}

function profileLines(profile: ProfileSummary): string[] {
  const lines = [
    '',
    profile.heading ??
      `Profile of our simulator (V8 CPU profiler as in \`node --cpu-prof\`; ${profile.totalMs} ms of CPU samples; \`${profile.file}\`): ${profile.subject}`,
    '',
    `Self time by area: ${profile.byArea.map((a) => `${a.area} ${a.selfPercent}%`).join(', ')}`,
    '',
    '| Self % | Self ms | Function | Location |',
    '|---|---|---|---|',
  ];
  for (const e of profile.top) {
    lines.push(`| ${e.selfPercent} | ${e.selfMs} | \`${e.functionName}\` | \`${e.location}\` |`);
  }
  return lines;
}

export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const lines = [
    `# Benchmark results (${report.mode} run)`,
    '',
    'Produced by `npm run bench` (bench/src/main.ts). Every ratio compares figures measured in the same run, with ours and the baseline interleaved.',
    '',
    `- Date: ${m.date}`,
    `- Machine: ${m.cores} cores, ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.platform}`,
    `- Node: ${m.node}`,
    `- Simulators: ${report.simulatorBuild}`,
    `- Peers: ${report.peers}`,
    `- Total run time: ${(report.durationMs / 1000).toFixed(1)} s`,
    ...(report.only ? [`- Partial run: only ${report.only.join(', ')} (\`--only\`)`] : []),
    '',
    ...beforeAfterMarkdown(report),
    '## Summary',
    '',
    '| Measure | Scenario | Result |',
    '|---|---|---|',
  ];
  for (const measure of report.measures) {
    for (const row of measure.comparisons.filter(
      (c: Comparison) => c.verdict === 'PASS' || c.verdict === 'MISS',
    )) {
      lines.push(`| ${measure.title} | ${row.scenario} | **${row.verdict}** |`);
    }
  }
  for (const measure of report.measures) {
    lines.push('', `## ${measure.title}`, '');
    for (const method of measure.method) lines.push(`- ${method}`);
    if (measure.comparisons.length > 0) lines.push('', ...table(measure));
    if (measure.notes.length > 0) {
      lines.push('');
      for (const note of measure.notes) lines.push(`- ${note}`);
    }
    for (const profile of measure.profiles) lines.push(...profileLines(profile));
    lines.push('', `(${(measure.durationMs / 1000).toFixed(1)} s)`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes `<name>.md` and `<name>.json` (latest.* unless a partial run is given another name). */
export function writeResults(
  outDir: string,
  report: BenchReport,
  name = 'latest',
): { markdown: string; json: string } {
  return writeReportFiles(outDir, name, renderMarkdown(report), report);
}

/** `<name>.md` and `<name>.json` in dir, for the bench, the soak and the abuse run alike. */
export function writeReportFiles(
  dir: string,
  name: string,
  markdown: string,
  report: unknown,
): { markdown: string; json: string } {
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, name);
  writeFileSync(`${base}.md`, markdown);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  return { markdown: `${base}.md`, json: `${base}.json` };
}
