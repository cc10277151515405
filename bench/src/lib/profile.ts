import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProfileArea, ProfileEntry, ProfileSummary } from '../types';

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

/** Code of the control plane: the journal, the request metrics and the callers building entries. */
const controlPlaneCode = (name: string, location: string) =>
  location.includes('/control/') ||
  location.includes('node_modules/prom-client/') ||
  (name === 'delivered' && location.includes('channel-bus'));

/**
 * Where the extra CPU of the control plane on (`withRun`) over it off goes, per `per` units of
 * work: each function's self time per unit in one profile minus that in the other, the largest
 * differences first. Two runs of the same load at different rates compare by work done, not by
 * wall time.
 */
export function controlPlaneDiff(
  withRun: ProfiledWork,
  withoutRun: ProfiledWork,
  { subject, root, per, unit }: { subject: string; root: string; per: number; unit: string },
): ProfileSummary {
  const a = selfTimes(withRun.file, root);
  const b = selfTimes(withoutRun.file, root);
  const scaleA = per / Math.max(1, withRun.units);
  const scaleB = per / Math.max(1, withoutRun.units);
  // Shares of all the CPU the `with` run spent per unit: a total difference near zero or below
  // (noise in the socket writes) would make shares of the difference itself meaningless.
  const withPerUnit = a.total * scaleA;
  let attributed = 0;
  for (const e of a.byFunction.values()) if (controlPlaneCode(e.name, e.location)) attributed += e.us;
  const percent = a.total > 0 ? Math.round((attributed * 1000) / a.total) / 10 : 0;
  const files = [withRun.file, withoutRun.file].map((f) => path.relative(root, f));
  return {
    subject,
    file: files.join(' - '),
    totalMs: ms(withPerUnit - b.total * scaleB),
    ...ranked(
      [
        [a, scaleA],
        [b, -scaleB],
      ],
      withPerUnit,
      12,
    ),
    heading:
      `Where our simulator spends more with the control plane on than off: ${subject}. ` +
      `Difference of two CPU profiles per ${per.toLocaleString('en-US')} ${unit} ` +
      `(\`${files[0]}\` minus \`${files[1]}\`; ` +
      `profile samples per that work: ${ms(withPerUnit)} ms with, ${ms(b.total * scaleB)} ms without). ` +
      `Self time of control-plane code (core control/*, prom-client, the callers building journal entries) with the control plane on: ${percent}% of the simulator's CPU. ` +
      "Self ms: a function's self time per that work with, minus without (negative: less with); " +
      'Self %: that difference as a share of all samples per that work with. ' +
      'The sampler follows wall time, so socket writes and time the process waited for a core swing from run to run ' +
      'on a busy machine; the lines only one side runs (journal, prom-client) are the reliable part, and the CPU rows of the table the cost figure.',
  };
}
