import { startSim, type Server, type SimKind } from '../harness/processes';
import { distribution, round } from '../harness/stats';
import { watch } from '../harness/watch';

/** Levels below warn, as the simulators name them in JSON logs (LOG_FORMAT=json). */
const BELOW_WARN = new Set(['trace', 'debug', 'info']);

/** A log line's cause (its `msg`) and whether it is warn or worse. */
function causeOf(line: string): { cause: string; warn: boolean } {
  try {
    const { msg, level } = JSON.parse(line) as { msg?: unknown; level?: unknown };
    if (typeof msg === 'string')
      return { cause: msg.slice(0, 80), warn: typeof level !== 'string' || !BELOW_WARN.has(level) };
  } catch {
    // Not a JSON log line (a crash trace, a runtime warning): its text without numbers is its cause.
  }
  return { cause: line.replace(/\d+/g, '#').slice(0, 80), warn: true };
}

/** A simulator's output lines between two times: per second, and warn-or-worse lines per cause per second. */
function logFigures(
  lines: ReadonlyArray<{ at: number; cause: string; warn: boolean }>,
  fromMs: number,
  toMs: number,
) {
  const perSecond = new Map<number, number>();
  const perCause = new Map<string, number>();
  const totals = new Map<string, number>();
  const inPhase = lines.filter(({ at }) => at >= fromMs && at <= toMs);
  for (const { at, cause, warn } of inPhase) {
    const second = Math.floor(at / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    // An info line records one requested action (a sandbox created); a flood is of warnings.
    if (!warn) continue;
    perCause.set(`${second} ${cause}`, (perCause.get(`${second} ${cause}`) ?? 0) + 1);
    totals.set(cause, (totals.get(cause) ?? 0) + 1);
  }
  const top = [...totals.entries()].sort((a, b) => b[1] - a[1])[0];
  return {
    ...{ total: inPhase.length, perSecondMean: round(inPhase.length / Math.max(1, (toMs - fromMs) / 1000)) },
    maxPerSecond: Math.max(0, ...perSecond.values()),
    /** The most warn-or-worse lines of one cause within one second (target: at most 1). */
    maxPerSecondOneCause: Math.max(0, ...perCause.values()),
    topCause: top ? `${top[0]} (${top[1]})` : '',
  };
}

export interface MonitoredSimulator {
  readonly kind: SimKind;
  readonly sim: Server;
  readonly lines: Array<{ at: number; cause: string; warn: boolean }>;
}

/** A simulator at LOG_LEVEL info (what a user runs, so log floods show), its lines counted. */
export async function startMonitored(
  root: string,
  kind: SimKind,
  env: Record<string, string>,
): Promise<MonitoredSimulator> {
  const lines: MonitoredSimulator['lines'] = [];
  const onLine = (line: string) => line.trim() !== '' && lines.push({ at: Date.now(), ...causeOf(line) });
  const sim = await startSim(root, kind, { env: { LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env }, onLine });
  return { kind, sim, lines };
}

/**
 * Watches simulators for the length of one phase: GET /health from a prober process every
 * `probeEveryMs`, VmRSS every `rssEveryMs`, and the log lines printed meanwhile.
 */
export async function watchPhase(
  sims: readonly MonitoredSimulator[],
  probeEveryMs: number,
  rssEveryMs: number,
) {
  const watcher = await watch(sims, probeEveryMs, rssEveryMs);
  const startedAt = Date.now();
  return {
    async stop() {
      const { rss, probes } = await watcher.stop();
      const endedAt = Date.now();
      return sims.map(({ kind, sim, lines }) => {
        const kbs = (rss[kind] ?? []).map((s) => s.kb);
        const d = distribution(probes[kind]?.samples ?? []);
        const mb = (kb: number | undefined) => round((kb ?? Number.NaN) / 1024, 1);
        return {
          simulator: kind,
          /** GET /health from the prober, in ms. */
          health: {
            count: d.count,
            failed: probes[kind]?.failed ?? 0,
            p50: round(d.p50),
            p99: round(d.p99),
            max: round(d.max),
          },
          rss: { startMb: mb(kbs[0]), peakMb: mb(Math.max(...kbs)), endMb: mb(kbs.at(-1)) },
          logs: logFigures(lines, startedAt, endedAt),
          /** False when the process was gone at the end of the phase. */
          alive: !sim.exited(),
        };
      });
    },
  };
}

export type ProcessFigures = Awaited<ReturnType<Awaited<ReturnType<typeof watchPhase>>['stop']>>[number];
