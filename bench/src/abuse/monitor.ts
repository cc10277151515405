import { distribution, round } from '../harness/stats';
import { rssKb } from '../harness/proc';
import { startSim, type Server, type SimKind } from '../harness/processes';
import { startHealthProbe, type HealthProbe } from '../soak/health-probe';

/** Counts a simulator's output lines by second and by cause (the log line's `msg`). */
class LogTally {
  private readonly lines: Array<{ at: number; cause: string; warn: boolean }> = [];

  readonly onLine = (line: string): void => {
    if (line.trim() === '') return;
    this.lines.push({ at: Date.now(), ...causeOf(line) });
  };

  figures(fromMs: number, toMs: number) {
    const perSecond = new Map<number, number>();
    const perCause = new Map<string, number>();
    const totals = new Map<string, number>();
    let total = 0;
    for (const { at, cause, warn } of this.lines) {
      if (at < fromMs || at > toMs) continue;
      total++;
      const second = Math.floor(at / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      // An info line records one requested action (a sandbox created); a flood is of warnings.
      if (!warn) continue;
      const key = `${second} ${cause}`;
      perCause.set(key, (perCause.get(key) ?? 0) + 1);
      totals.set(cause, (totals.get(cause) ?? 0) + 1);
    }
    const seconds = Math.max(1, (toMs - fromMs) / 1000);
    const top = [...totals.entries()].sort((a, b) => b[1] - a[1])[0];
    return {
      total,
      perSecondMean: round(total / seconds),
      maxPerSecond: Math.max(0, ...perSecond.values()),
      /** The most warn-or-worse lines of one cause within one second (target: at most 1). */
      maxPerSecondOneCause: Math.max(0, ...perCause.values()),
      topCause: top ? `${top[0]} (${top[1]})` : '',
    };
  }
}

/** Levels below warn, as the simulators name them in JSON logs (LOG_FORMAT=json). */
const BELOW_WARN = new Set(['trace', 'debug', 'info']);

function causeOf(line: string): { cause: string; warn: boolean } {
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; level?: unknown };
    if (typeof parsed.msg === 'string') {
      return {
        cause: parsed.msg.slice(0, 80),
        warn: typeof parsed.level !== 'string' || !BELOW_WARN.has(parsed.level),
      };
    }
  } catch {
    // Not a JSON log line (a crash trace, a runtime warning): its text without numbers is its cause.
  }
  return { cause: line.replace(/\d+/g, '#').slice(0, 80), warn: true };
}

export type ProcessFigures = Awaited<ReturnType<Awaited<ReturnType<typeof watchPhase>>['stop']>>[number];

export interface MonitoredSimulator {
  readonly kind: SimKind;
  readonly sim: Server;
  readonly logs: LogTally;
}

/** A simulator started with its lines counted (and the bench hook preloaded: phases read the heap after GC). */
export async function startMonitored(
  root: string,
  kind: SimKind,
  env: Record<string, string>,
): Promise<MonitoredSimulator> {
  const logs = new LogTally();
  // LOG_LEVEL info: what a user runs, so log floods show.
  const sim = await startSim(root, kind, {
    env: { LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    onLine: logs.onLine,
  });
  return { kind, sim, logs };
}

/**
 * Watches simulators for the length of one phase: GET /health from the soak's probe process every
 * `probeEveryMs`, VmRSS every `rssEveryMs`, and the log lines printed meanwhile.
 */
export async function watchPhase(
  sims: readonly MonitoredSimulator[],
  probeEveryMs: number,
  rssEveryMs: number,
) {
  const targets = sims.map(({ kind, sim }) => ({ name: kind, port: sim.port }));
  const prober: HealthProbe = await startHealthProbe(targets, probeEveryMs, 15 * 60_000);
  const startedAt = Date.now();
  const rss = new Map<string, number[]>(sims.map(({ kind }) => [kind, []]));
  const sample = () => {
    for (const { kind, sim } of sims) {
      const kb = rssKb(sim.pid);
      if (kb !== undefined) rss.get(kind)?.push(kb);
    }
  };
  sample();
  const timer = setInterval(sample, rssEveryMs);
  return {
    async stop() {
      clearInterval(timer);
      sample();
      const endedAt = Date.now();
      const probes = await prober.stop();
      return sims.map(({ kind, sim, logs }) => {
        const kbs = rss.get(kind) ?? [];
        const probe = probes[kind];
        const d = distribution(probe?.samples ?? []);
        const mb = (kb: number | undefined) => round((kb ?? Number.NaN) / 1024, 1);
        return {
          simulator: kind,
          /** GET /health from the probe process, in ms. */
          health: {
            count: d.count,
            failed: probe?.failed ?? 0,
            p50: round(d.p50),
            p99: round(d.p99),
            max: round(d.max),
          },
          rss: { startMb: mb(kbs[0]), peakMb: mb(Math.max(...kbs)), endMb: mb(kbs.at(-1)) },
          logs: logs.figures(startedAt, endedAt),
          /** False when the process was gone at the end of the phase. */
          alive: !sim.exited(),
        };
      });
    },
  };
}
