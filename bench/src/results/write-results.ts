import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchReport, MeasureResult, ProfileSummary } from '../types';
import { beforeAfterMarkdown } from './before-after';

const cell = (value: number | null, unit: string) =>
  value === null
    ? 'not measured'
    : `${Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : value}${unit && ` ${unit}`}`;
const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;

function table(measure: MeasureResult): string[] {
  const names = [...new Set(measure.comparisons.flatMap((row) => row.baselines.map((b) => b.name)))];
  const labels = [...new Set(measure.comparisons.map((row) => row.ratioLabel))];
  const header = ['Scenario', 'Ours', ...names, `Ratio (${labels.length === 1 ? labels[0] : 'ours / bare'})`];
  const lines = [line([...header, 'Target', 'Result', 'Notes']), `|${'---|'.repeat(header.length + 3)}`];
  for (const row of measure.comparisons) {
    const baselines = names.map((n) => {
      const b = row.baselines.find((x) => x.name === n);
      return !b ? '—' : `${cell(b.value, row.unit)}${b.note ? ` (${b.note})` : ''}`;
    });
    const spread = row.ratioSpread ? ` (${row.ratioSpread[0]}–${row.ratioSpread[1]})` : '';
    const ratio = row.ratio === null ? '—' : `${row.ratio}${spread}`;
    lines.push(
      line([
        row.scenario,
        cell(row.ours, row.unit),
        ...baselines,
        ratio,
        row.target,
        `**${row.verdict}**`,
        row.note ?? '',
      ]),
    );
  }
  return lines;
}

const profileLines = (p: ProfileSummary) => [
  '',
  `Profile of our simulator (V8 CPU profiler as in \`node --cpu-prof\`; ${p.totalMs} ms of CPU samples; \`${p.file}\`): ${p.subject}`,
  '',
  `Self time by area: ${p.byArea.map((a) => `${a.area} ${a.selfPercent}%`).join(', ')}`,
  '',
  '| Self % | Self ms | Function | Location |',
  '|---|---|---|---|',
  ...p.top.map((e) => `| ${e.selfPercent} | ${e.selfMs} | \`${e.functionName}\` | \`${e.location}\` |`),
];

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
  for (const { title, comparisons } of report.measures) {
    for (const row of comparisons.filter((c) => c.verdict === 'PASS' || c.verdict === 'MISS')) {
      lines.push(`| ${title} | ${row.scenario} | **${row.verdict}** |`);
    }
  }
  for (const measure of report.measures) {
    lines.push('', `## ${measure.title}`, '', ...measure.method.map((method) => `- ${method}`));
    if (measure.comparisons.length > 0) lines.push('', ...table(measure));
    if (measure.notes.length > 0) lines.push('', ...measure.notes.map((note) => `- ${note}`));
    for (const profile of measure.profiles) lines.push(...profileLines(profile));
    lines.push('', `(${(measure.durationMs / 1000).toFixed(1)} s)`);
  }
  return `${lines.join('\n')}\n`;
}

/** `<name>.md` and `<name>.json` in dir, for the bench (latest.* unless named otherwise), the soak and the abuse run. */
export function writeReportFiles(dir: string, name: string, markdown: string, report: unknown) {
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, name);
  writeFileSync(`${base}.md`, markdown);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  return { markdown: `${base}.md`, json: `${base}.json` };
}

export const writeResults = (outDir: string, report: BenchReport, name = 'latest') =>
  writeReportFiles(outDir, name, renderMarkdown(report), report);
