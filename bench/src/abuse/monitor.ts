import { parsed } from '../clients/receipts';
import { ourSim, type SimKind } from '../harness/processes';
import { round } from '../harness/rows';
import { health, healthCheck, type ProbeResult } from '../harness/watch';
import { check } from '../types';

/** Levels below warn, as the simulators name them in JSON logs (LOG_FORMAT=json). */
const BELOW_WARN = new Set(['trace', 'debug', 'info']);
/** The target on log lines: at most this many warn-or-worse lines of one cause a second. */
const LOG_LINES_PER_SECOND_PER_CAUSE = 1;

type LogLine = { at: number; cause: string; warn: boolean };

/** A log line's cause (its `msg`) and whether it is warn or worse. */
function causeOf(line: string): { cause: string; warn: boolean } {
  const { msg, level } = (parsed(line) ?? {}) as { msg?: unknown; level?: unknown };
  if (typeof msg === 'string')
    return { cause: msg.slice(0, 80), warn: typeof level !== 'string' || !BELOW_WARN.has(level) };
  // Not a JSON log line (a crash trace, a runtime warning): its text without numbers is its cause.
  return { cause: line.replace(/\d+/g, '#').slice(0, 80), warn: true };
}

/** A simulator's output lines between two times: per second, and warn-or-worse lines per cause per second. */
function logFigures(lines: readonly LogLine[], fromMs: number, toMs: number) {
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
    total: inPhase.length,
    maxPerSecond: Math.max(0, ...perSecond.values()),
    /** The most warn-or-worse lines of one cause within one second (target: at most 1). */
    maxPerSecondOneCause: Math.max(0, ...perCause.values()),
    topCause: top ? `${top[0]} (${top[1]})` : '',
  };
}

/** A simulator at LOG_LEVEL info (what a user runs, so log floods show), its lines counted. */
export async function startMonitored(root: string, kind: SimKind, env: Record<string, string>) {
  const lines: LogLine[] = [];
  const onLine = (line: string) => line.trim() !== '' && lines.push({ at: Date.now(), ...causeOf(line) });
  const sim = await ourSim({ simRoot: root }, kind, {
    env: { LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    onLine,
  });
  return { kind, sim, lines };
}

/** One simulator over a phase from `fromMs` to now: /health, RSS from /proc and its log lines. */
export function processFigures(
  { kind, sim, lines }: Awaited<ReturnType<typeof startMonitored>>,
  watched: { rss: Record<string, Array<{ kb: number }>>; probes: ProbeResult },
  fromMs: number,
) {
  const kbs = (watched.rss[kind] ?? []).map((s) => s.kb);
  const mb = (kb: number | undefined) => round((kb ?? Number.NaN) / 1024, 1);
  return {
    simulator: kind,
    /** GET /health from the prober, in ms. */
    health: health(watched.probes[kind]),
    rss: { startMb: mb(kbs[0]), peakMb: mb(Math.max(...kbs)), endMb: mb(kbs.at(-1)) },
    logs: logFigures(lines, fromMs, Date.now()),
    /** False when the process was gone at the end of the phase. */
    alive: !sim.exited(),
  };
}

/** The targets every phase holds each simulator to: /health p99, RSS within the budget, log lines, alive. */
export function processChecks(p: ReturnType<typeof processFigures>, budgetMb: number) {
  const { simulator: name, rss, logs } = p;
  const topCause = logs.topCause ? `; most: ${logs.topCause}` : '';
  return [
    healthCheck(name, p.health),
    check(
      `${name} RSS`,
      `peak - start <= ${budgetMb} MB`,
      `${rss.startMb} / ${rss.peakMb} / ${rss.endMb} MB (start / peak / end)`,
      rss.peakMb - rss.startMb <= budgetMb,
    ),
    check(
      `${name} log lines`,
      `<= ${LOG_LINES_PER_SECOND_PER_CAUSE}/s per cause (warn and worse)`,
      `${logs.total} lines, max ${logs.maxPerSecond}/s, max ${logs.maxPerSecondOneCause}/s of one cause${topCause}`,
      logs.maxPerSecondOneCause <= LOG_LINES_PER_SECOND_PER_CAUSE,
    ),
    check(`${name} process alive`, 'yes', p.alive ? 'yes' : 'no', p.alive),
  ];
}
