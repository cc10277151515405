import path from 'node:path';
import { checksTable, machineInfo, machineLine, table } from '../results/write-results';
import { killAllChildren } from '../harness/processes';
import { watch } from '../harness/watch';
import { abuseConfig, RSS_HEADROOM_MB, type AbuseConfig, type AbuseMode, type Phase } from './config';
import { processChecks, processFigures, startMonitored } from './monitor';
import { faultBodies, journalWaits, streamNonReaders } from './phase-control';
import { abandonedRequests, clockAdvances, crossSandbox } from './phase-faults';
import { legacyFlood, listenStorm } from './phase-legacy';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const PHASES: readonly Phase[] = [
  ...[listenStorm, journalWaits, streamNonReaders, faultBodies],
  ...[abandonedRequests, crossSandbox, clockAdvances, legacyFlood],
];

export interface RunAbuseOptions {
  readonly mode: AbuseMode;
  /** Only these phase ids (default: all). */
  readonly only?: readonly number[];
  /** Sizes of the listen storm other than the mode's (the storm rerun after a delivery-path change). */
  readonly listenStorm?: Partial<AbuseConfig['listenStorm']>;
  readonly log?: (message: string) => void;
}

/** One phase against fresh simulators, watched from outside while it runs. */
async function runPhase(phase: Phase, config: AbuseConfig) {
  const started = Date.now();
  const sims: Array<Awaited<ReturnType<typeof startMonitored>>> = [];
  try {
    for (const kind of phase.simulators) sims.push(await startMonitored(REPO_ROOT, kind, phase.env ?? {}));
    const watcher = await watch(sims, config.probeEveryMs, config.rssEveryMs);
    const from = Date.now();
    const running = phase.run(Object.fromEntries(sims.map((s) => [s.kind, s.sim])), config);
    const [settled] = await Promise.allSettled([running]);
    const watched = await watcher.stop();
    if (settled.status === 'rejected') throw settled.reason;
    const outcome = settled.value;
    const processes = sims.map((sim) => processFigures(sim, watched, from));
    const budget = RSS_HEADROOM_MB + outcome.rssBudget.mb;
    return {
      ...{ id: phase.id, title: phase.title, durationMs: Date.now() - started, processes, ...outcome },
      /** Every check, the process ones (health p99, RSS, log lines) included. */
      verdicts: [...outcome.checks, ...processes.flatMap((p) => processChecks(p, budget))],
    };
  } finally {
    await Promise.all(sims.map(({ sim }) => sim.stop()));
  }
}

/** Runs the phases one after the other, each against fresh simulator processes. */
export async function runAbuse(options: RunAbuseOptions) {
  const log = options.log ?? ((m: string) => console.log(m));
  const started = Date.now();
  const base = abuseConfig(options.mode);
  const config = { ...base, listenStorm: { ...base.listenStorm, ...options.listenStorm } };
  const phases: Array<Awaited<ReturnType<typeof runPhase>>> = [];
  try {
    for (const phase of PHASES.filter((p) => !options.only || options.only.includes(p.id))) {
      log(`phase ${phase.id}: ${phase.title} (${phase.simulators.join(' + ')})`);
      const result = await runPhase(phase, config);
      for (const v of result.verdicts)
        log(`  ${v.pass ? 'PASS' : 'MISS'}  ${v.name}: ${v.value} (target ${v.target})`);
      for (const note of result.notes ?? []) log(`  note: ${note}`);
      phases.push(result);
    }
  } finally {
    killAllChildren();
  }
  const failures = phases.flatMap((p) =>
    p.verdicts.filter((v) => !v.pass).map((v) => `${p.id}. ${p.title}: ${v.name}`),
  );
  return {
    ...{ mode: options.mode, machine: machineInfo(), config, phases },
    /** "<phase>. <title>: <check>" of every missed target. */
    failures,
    pass: failures.length === 0,
    durationMs: Date.now() - started,
  };
}

export type AbuseReport = Awaited<ReturnType<typeof runAbuse>>;

export function abuseMarkdown(report: AbuseReport, title = 'Abuse run'): string {
  const missed = report.failures;
  const lines = [
    `# ${title} (${report.mode})`,
    '',
    `${machineLine(report.machine)}; ${(report.durationMs / 1000).toFixed(0)} s.`,
    'Each phase runs against fresh simulator processes (the built CLI on loopback, LOG_LEVEL info).',
    `\`/health\` is probed every ${report.config.probeEveryMs} ms from a separate process; RSS is read from /proc/<pid>/status every ${report.config.rssEveryMs} ms; log lines are the simulator's stdout and stderr lines, counted per second, and warn-or-worse lines per cause (the log line's \`msg\`) per second.`,
    '',
    report.pass ? '**Every target met.**' : `**${missed.length} targets missed:** ${missed.join('; ')}.`,
    '',
    ...table(
      'Phase|Simulator|/health p99 (max)|RSS start / peak / end|Log lines (total, max/s, max/s one cause)'.split(
        '|',
      ),
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
