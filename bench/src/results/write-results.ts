import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { round } from '../harness/rows';
import type { BenchReport, Check, MeasureResult, ProfileSummary } from '../types';

/**
 * The one report writer of the bench, the soak and the abuse run: markdown tables (every cell's
 * `|` escaped), the machine line, verdict tables, and `<name>.md` with `<name>.json` beside it.
 */
export const table = (header: readonly string[], rows: ReadonlyArray<readonly unknown[]>) => [
  line(header),
  `|${'---|'.repeat(header.length)}`,
  ...rows.map(line),
];
const line = (cells: readonly unknown[]) =>
  `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;

/** The machine and the date of a run, which every report states. */
export function machineInfo() {
  const cpus = os.cpus();
  return {
    ...{ cores: cpus.length, cpuModel: cpus[0]?.model.trim() ?? 'unknown' },
    ...{ memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    ...{ platform: `${os.platform()} ${os.release()} ${os.arch()}`, date: new Date().toISOString() },
  };
}

export const machineLine = (m: ReturnType<typeof machineInfo>) =>
  `${m.date}; ${m.cores} cores ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}`;

export const checksTable = (checks: readonly Check[]) =>
  table(
    ['Check', 'Target', 'Value', 'Result'],
    checks.map((c) => [c.name, c.target, c.value, `**${c.pass ? 'PASS' : 'MISS'}**`]),
  );

const cell = (value: number | null, unit: string) =>
  value === null
    ? 'not measured'
    : `${Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : value}${unit && ` ${unit}`}`;

function measureTable(measure: MeasureResult): string[] {
  const names = [...new Set(measure.comparisons.flatMap((row) => row.baselines.map((b) => b.name)))];
  const labels = [...new Set(measure.comparisons.map((row) => row.ratioLabel))];
  const header = ['Scenario', 'Ours', ...names, `Ratio (${labels.length === 1 ? labels[0] : 'ours / bare'})`];
  const rows = measure.comparisons.map((row) => {
    const baselines = names.map((n) => {
      const b = row.baselines.find((x) => x.name === n);
      return !b ? '—' : `${cell(b.value, row.unit)}${b.note ? ` (${b.note})` : ''}`;
    });
    const spread = row.ratioSpread ? ` (${row.ratioSpread[0]}–${row.ratioSpread[1]})` : '';
    const ratio = row.ratio === null ? '—' : `${row.ratio}${spread}`;
    const result = [row.target, `**${row.verdict}**`, row.note ?? ''];
    return [row.scenario, cell(row.ours, row.unit), ...baselines, ratio, ...result];
  });
  return table([...header, 'Target', 'Result', 'Notes'], rows);
}

const profileLines = (p: ProfileSummary) => [
  '',
  `Profile of our simulator (V8 CPU profiler as in \`node --cpu-prof\`; ${p.totalMs} ms of CPU samples; \`${p.file}\`): ${p.subject}`,
  '',
  `Self time by area: ${p.byArea.map((a) => `${a.area} ${a.selfPercent}%`).join(', ')}`,
  '',
  ...table(
    ['Self %', 'Self ms', 'Function', 'Location'],
    p.top.map((e) => [e.selfPercent, e.selfMs, `\`${e.functionName}\``, `\`${e.location}\``]),
  ),
];

const text = (value: number | null, unit = ''): string =>
  value === null ? '—' : `${value}${unit ? ` ${unit}` : ''}`;

/**
 * Every scenario both builds of a --before run measured: each one's figure and ratio to its
 * baseline, and the change after / before (below 1: less of the figure, better for times).
 */
export const beforeAfterRows = (report: BenchReport) =>
  report.measures.flatMap((after) =>
    after.comparisons.map((row) => {
      const measure = report.before?.measures.find((m) => m.id === after.id);
      const old = measure?.comparisons.find((c) => c.scenario === row.scenario);
      const change = old?.ours && row.ours !== null ? round(row.ours / old.ours, 3) : null;
      const [before, beforeRatio, afterRatio] = [old?.ours ?? null, old?.ratio ?? null, row.ratio];
      return { ...row, measure: after.title, before, after: row.ours, change, beforeRatio, afterRatio };
    }),
  );

function beforeAfterMarkdown(report: BenchReport): string[] {
  if (!report.before) return [];
  const rows = beforeAfterRows(report).map((row) => [
    ...[row.measure, row.scenario, text(row.before, row.unit), text(row.after, row.unit)],
    ...[text(row.change), text(row.beforeRatio), `${text(row.afterRatio)} (${row.ratioLabel})`],
  ]);
  const failed = report.before.measures.filter((m) => m.comparisons.length === 0 && m.notes.length > 0);
  return [
    '## Before and after',
    '',
    `Before: the simulators of \`${report.before.root}\`; after: this checkout's. Each measure ran against the before build and then at once against the after build, with the same harness and baselines; each build's ratio is to the baseline measured beside it.`,
    '',
    ...table(
      ['Measure', 'Scenario', 'Before', 'After', 'After / before', 'Before ratio', 'After ratio'],
      rows,
    ),
    ...failed.flatMap((m) => ['', `- before, ${m.title}: ${m.notes.join('; ')}`]),
  ];
}

export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const verdicts = report.measures.flatMap(({ title, comparisons }) =>
    comparisons
      .filter((c) => c.verdict === 'PASS' || c.verdict === 'MISS')
      .map((c) => [title, c.scenario, `**${c.verdict}**`]),
  );
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
    ...table(['Measure', 'Scenario', 'Result'], verdicts),
  ];
  for (const measure of report.measures) {
    lines.push('', `## ${measure.title}`, '', ...measure.method.map((method) => `- ${method}`));
    if (measure.comparisons.length > 0) lines.push('', ...measureTable(measure));
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
