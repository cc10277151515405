import path from 'node:path';
import { machineInfo } from '../machine';
import { killAllChildren } from '../harness/processes';
import { abuseConfig, type AbuseConfig, type AbuseMode } from './config';
import { startMonitored, watchPhase, type MonitoredSimulator, type ProcessFigures } from './monitor';
import { faultBodies, journalWaits, streamNonReaders } from './phase-control';
import { abandonedRequests, clockAdvances, crossSandbox } from './phase-faults';
import { legacyFlood } from './phase-legacy-flood';
import { listenStorm } from './phase-listen-storm';
import { check, type Check } from '../types';
import { RSS_HEADROOM_MB, type Phase } from './types';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const PHASES: readonly Phase[] = [
  listenStorm,
  journalWaits,
  streamNonReaders,
  faultBodies,
  abandonedRequests,
  crossSandbox,
  clockAdvances,
  legacyFlood,
];

/** The issue's targets for every abuse. */
const HEALTH_P99_LIMIT_MS = 100;
const LOG_LINES_PER_SECOND_PER_CAUSE = 1;

export interface RunAbuseOptions {
  readonly mode: AbuseMode;
  /** Only these phase ids (default: all). */
  readonly only?: readonly number[];
  /** Sizes of the listen storm other than the mode's (the storm rerun after a delivery-path change). */
  readonly listenStorm?: Partial<AbuseConfig['listenStorm']>;
  readonly log?: (message: string) => void;
}

function processChecks(p: ProcessFigures, budgetMb: number): Check[] {
  const { simulator: name, health, rss, logs } = p;
  return [
    check(
      `${name} /health p99`,
      `< ${HEALTH_P99_LIMIT_MS} ms, none failed`,
      `${health.p99} ms (${health.count} probes, ${health.failed} failed, max ${health.max} ms)`,
      health.p99 < HEALTH_P99_LIMIT_MS && health.failed === 0 && health.count > 0,
    ),
    check(
      `${name} RSS`,
      `peak - start <= ${budgetMb} MB`,
      `${rss.startMb} / ${rss.peakMb} / ${rss.endMb} MB (start / peak / end)`,
      rss.peakMb - rss.startMb <= budgetMb,
    ),
    check(
      `${name} log lines`,
      `<= ${LOG_LINES_PER_SECOND_PER_CAUSE}/s per cause (warn and worse)`,
      `${logs.total} lines, max ${logs.maxPerSecond}/s, max ${logs.maxPerSecondOneCause}/s of one cause${logs.topCause ? `; most: ${logs.topCause}` : ''}`,
      logs.maxPerSecondOneCause <= LOG_LINES_PER_SECOND_PER_CAUSE,
    ),
    check(`${name} process alive`, 'yes', p.alive ? 'yes' : 'no', p.alive),
  ];
}

async function runPhase(phase: Phase, config: AbuseConfig) {
  const started = Date.now();
  const sims: Record<string, MonitoredSimulator> = {};
  try {
    for (const kind of phase.simulators) sims[kind] = await startMonitored(REPO_ROOT, kind, phase.env ?? {});
    const monitor = await watchPhase(Object.values(sims), config.probeEveryMs, config.rssEveryMs);
    const settled = await phase.run(sims, config).then(
      (outcome) => ({ outcome }),
      (error: unknown) => ({ error }),
    );
    const processes = await monitor.stop();
    if ('error' in settled) throw settled.error;
    const { outcome } = settled;
    const verdicts = [
      ...outcome.checks,
      ...processes.flatMap((p) => processChecks(p, RSS_HEADROOM_MB + outcome.rssBudget.mb)),
    ];
    return {
      id: phase.id,
      title: phase.title,
      durationMs: Date.now() - started,
      processes,
      ...outcome,
      /** Every check, the process ones (health p99, RSS, log lines) included. */
      verdicts,
    };
  } finally {
    await Promise.all(Object.values(sims).map(({ sim }) => sim.stop()));
  }
}

export type PhaseResult = Awaited<ReturnType<typeof runPhase>>;

/** Runs the phases one after the other, each against fresh simulator processes. */
export async function runAbuse(options: RunAbuseOptions) {
  const log = options.log ?? ((m: string) => console.log(m));
  const started = Date.now();
  const base = abuseConfig(options.mode);
  const config = { ...base, listenStorm: { ...base.listenStorm, ...options.listenStorm } };
  const phases: PhaseResult[] = [];
  try {
    for (const phase of PHASES) {
      if (options.only && !options.only.includes(phase.id)) continue;
      log(`phase ${phase.id}: ${phase.title} (${phase.simulators.join(' + ')})`);
      const result = await runPhase(phase, config);
      for (const v of result.verdicts)
        log(`  ${v.pass ? 'PASS' : 'FAIL'}  ${v.name}: ${v.value} (target ${v.target})`);
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
    mode: options.mode,
    machine: machineInfo(),
    config,
    phases,
    /** "<phase>. <title>: <check>" of every missed target. */
    failures,
    pass: failures.length === 0,
    durationMs: Date.now() - started,
  };
}

export type AbuseReport = Awaited<ReturnType<typeof runAbuse>>;
