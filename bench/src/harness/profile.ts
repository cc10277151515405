import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext, ProfileArea, ProfileEntry, ProfileSummary } from '../types';
import type { Server } from './processes';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function shortLocation(url: string, line: number, root: string): string {
  if (url === '') return '(native)';
  let file = url.replace(/^file:\/\//, '');
  if (file.startsWith(root)) file = path.relative(root, file);
  return `${file}:${line + 1}`;
}

function areaOf(name: string, location: string): string {
  if (location === '(native)') return name.startsWith('(') && name !== '(anonymous)' ? name : '(native)';
  if (location.startsWith('node:')) return 'node internals';
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(location);
  if (dep) return dep[1] as string;
  const own = /^(packages\/[^/]+|bench)\//.exec(location);
  return own ? (own[1] as string) : 'other';
}

interface SelfTime {
  readonly name: string;
  readonly location: string;
  us: number;
}

interface SelfTimes {
  readonly byFunction: Map<string, SelfTime>;
  readonly areas: Map<string, number>;
  readonly total: number;
}

/** Self time (µs) per function and per area of one profile, idle excluded. */
function selfTimes(file: string, root: string): SelfTimes {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, SelfTime>();
  const areas = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i + 1] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') return;
    const name = node.callFrame.functionName || '(anonymous)';
    const location = shortLocation(node.callFrame.url, node.callFrame.lineNumber, root);
    const key = `${name}@${location}`;
    const entry = byFunction.get(key) ?? { name, location, us: 0 };
    entry.us += delta;
    byFunction.set(key, entry);
    const area = areaOf(name, location);
    areas.set(area, (areas.get(area) ?? 0) + delta);
    total += delta;
  });
  return { byFunction, areas, total };
}

const ms = (us: number) => Math.round(us / 100) / 10;

/**
 * The largest self times of one profile, or of a weighted sum of several (`scale` per profile),
 * each also as a share of `whole` µs.
 */
function ranked(parts: ReadonlyArray<readonly [SelfTimes, number]>, whole: number, top: number) {
  const fns = new Map<string, SelfTime>();
  const areas = new Map<string, number>();
  for (const [times, scale] of parts) {
    for (const [key, e] of times.byFunction) {
      const entry = fns.get(key) ?? { name: e.name, location: e.location, us: 0 };
      entry.us += e.us * scale;
      fns.set(key, entry);
    }
    for (const [area, us] of times.areas) areas.set(area, (areas.get(area) ?? 0) + us * scale);
  }
  const share = (us: number) => (whole > 0 ? Math.round((us * 1000) / whole) / 10 : 0);
  const entries: ProfileEntry[] = [...fns.values()]
    .sort((x, y) => y.us - x.us)
    .slice(0, top)
    .map((e) => ({ functionName: e.name, location: e.location, selfMs: ms(e.us), selfPercent: share(e.us) }));
  const byArea: ProfileArea[] = [...areas.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 8)
    .map(([area, us]) => ({ area, selfPercent: share(us) }));
  return { top: entries, byArea };
}

/** Self time per function (idle excluded), largest first. */
export function summariseProfile(file: string, subject: string, root: string, top = 12): ProfileSummary {
  const times = selfTimes(file, root);
  return {
    subject,
    file: path.relative(root, file),
    totalMs: Math.round(times.total / 1000),
    ...ranked([[times, 1]], times.total, top),
  };
}

/** The .cpuprofile of a run and the units of work it did (requests answered, messages delivered). */
export interface ProfiledWork {
  readonly file: string;
  readonly units: number;
}

/**
 * Where side A spends more CPU than side B under the same load, per `per` units of work: each
 * function's self time per unit in one profile minus that in the other, the largest differences
 * first. Two runs of the same load at different rates compare by work done, not by wall time.
 */
export function profileDiff(
  a: ProfiledWork,
  b: ProfiledWork,
  {
    subject,
    root,
    per,
    unit,
    sides,
  }: { subject: string; root: string; per: number; unit: string; sides: string },
): ProfileSummary {
  const [ta, tb] = [selfTimes(a.file, root), selfTimes(b.file, root)];
  const scaleA = per / Math.max(1, a.units);
  const scaleB = per / Math.max(1, b.units);
  // Shares of all the CPU side A spent per unit: a total difference near zero or below (noise in
  // the socket writes) would make shares of the difference itself meaningless.
  const aPerUnit = ta.total * scaleA;
  const files = [a.file, b.file].map((f) => path.relative(root, f));
  return {
    subject,
    file: files.join(' - '),
    totalMs: ms(aPerUnit - tb.total * scaleB),
    ...ranked(
      [
        [ta, scaleA],
        [tb, -scaleB],
      ],
      aPerUnit,
      12,
    ),
    heading:
      `Where our simulator spends more ${sides}: ${subject}. Difference of two CPU profiles per ${per.toLocaleString('en-US')} ${unit} ` +
      `(\`${files[0]}\` minus \`${files[1]}\`; profile samples per that work: ${ms(aPerUnit)} ms and ${ms(tb.total * scaleB)} ms). ` +
      "Self ms: a function's self time per that work in the first minus the second (negative: less); Self %: that difference as a share of all samples per that work of the first. " +
      'The sampler follows wall time, so socket writes and time the process waited for a core swing from run to run on a busy machine; the lines only one side runs are the reliable part, and the CPU rows of the table the cost figure.',
  };
}

export const shouldProfile = (ctx: BenchContext, verdict: string) =>
  ctx.profileMode === 'always' || (ctx.profileMode === 'miss' && verdict === 'MISS');

export interface ProfiledDrive {
  /** Connects clients and the like; not profiled. */
  setup?(server: Server): Promise<void>;
  /** The load of the measure; profiled. It may return the units of work it did. */
  run(server: Server): Promise<number | void>;
  teardown?(): unknown;
}

let profiles = 0;

/**
 * Reruns our side of a missed scenario on a fresh server with V8's CPU profiler on (through the
 * hook, as node --cpu-prof) for the duration of the load only, and summarises where it spent its time.
 */
export async function profileRun(
  ctx: BenchContext,
  subject: string,
  start: () => Promise<Server>,
  drive: ProfiledDrive,
): Promise<{ summary: ProfileSummary; units: number; file: string }> {
  ctx.log(`  profiling ${subject}`);
  const dir = path.join(ctx.rawDir, 'profiles');
  mkdirSync(dir, { recursive: true });
  const slug = subject
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  const file = path.join(dir, `${++profiles}-${slug}.cpuprofile`);
  const server = await start();
  let units = 0;
  try {
    await drive.setup?.(server);
    await server.hook('profile-start');
    units = (await drive.run(server)) ?? 0;
    await server.hook('profile-stop', { file });
  } finally {
    await drive.teardown?.();
    await server.stop();
  }
  return { summary: summariseProfile(file, subject, ctx.root), units, file };
}
