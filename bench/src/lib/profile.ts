import { readFileSync, readdirSync } from 'node:fs';
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

/** The newest .cpuprofile in a directory (node --cpu-prof names them by time and pid). */
export function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  const last = files[files.length - 1];
  return last === undefined ? undefined : path.join(dir, last);
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

/** Self time (µs) per function and per area of one profile, idle excluded. */
function selfTimes(
  file: string,
  root: string,
): { byFunction: Map<string, SelfTime>; areas: Map<string, number>; total: number } {
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

/** Self time per function (idle excluded), largest first. */
export function summariseProfile(file: string, subject: string, root: string, top = 12): ProfileSummary {
  const { byFunction, areas, total } = selfTimes(file, root);
  const entries: ProfileEntry[] = [...byFunction.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({
      functionName: e.name,
      location: e.location,
      selfMs: Math.round(e.us / 100) / 10,
      selfPercent: total > 0 ? Math.round((e.us / total) * 1000) / 10 : 0,
    }));
  const byArea: ProfileArea[] = [...areas.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([area, us]) => ({ area, selfPercent: total > 0 ? Math.round((us / total) * 1000) / 10 : 0 }));
  return {
    subject,
    file: path.relative(root, file),
    totalMs: Math.round(total / 1000),
    top: entries,
    byArea,
  };
}

export interface ProfiledWork {
  /** The .cpuprofile of the run. */
  readonly file: string;
  /** Units of work the run did (requests answered, messages delivered to every client). */
  readonly units: number;
}

export interface ProfileDiffOptions {
  readonly subject: string;
  readonly root: string;
  /** How many units the figures are given for, and what a unit is ("requests"). */
  readonly per: number;
  readonly unit: string;
  /** What differs between the runs ("the control plane on", "it off"). */
  readonly withName: string;
  readonly withoutName: string;
  readonly top?: number;
  /** Code whose self time in the `with` profile is reported as a share of all its CPU. */
  readonly attribute?: { readonly label: string; match(name: string, location: string): boolean };
}

/**
 * Where the extra CPU of `with` over `without` goes, per `per` units of work: each function's self
 * time per unit in one profile minus that in the other, the largest differences first. Two runs of
 * the same load at different rates compare by work done, not by wall time.
 */
export function diffProfiles(
  withRun: ProfiledWork,
  withoutRun: ProfiledWork,
  options: ProfileDiffOptions,
): ProfileSummary {
  const { subject, root, per, unit, top = 12 } = options;
  const a = selfTimes(withRun.file, root);
  const b = selfTimes(withoutRun.file, root);
  const scaleA = per / Math.max(1, withRun.units);
  const scaleB = per / Math.max(1, withoutRun.units);
  const diff = (keys: Iterable<string>, pa: Map<string, number>, pb: Map<string, number>) =>
    [...new Set(keys)].map((k) => [k, (pa.get(k) ?? 0) * scaleA - (pb.get(k) ?? 0) * scaleB] as const);
  const fnA = new Map([...a.byFunction].map(([k, v]) => [k, v.us]));
  const fnB = new Map([...b.byFunction].map(([k, v]) => [k, v.us]));
  const extra = a.total * scaleA - b.total * scaleB;
  const ms = (us: number) => Math.round(us / 100) / 10;
  // Shares of all the CPU the `with` run spent per unit: a total difference near zero or below
  // (noise in the socket writes) would make shares of the difference itself meaningless.
  const withPerUnit = a.total * scaleA;
  const share = (us: number) => (withPerUnit > 0 ? Math.round((us * 1000) / withPerUnit) / 10 : 0);
  const attribute = options.attribute;
  let attributed = '';
  if (attribute) {
    let us = 0;
    for (const e of a.byFunction.values()) if (attribute.match(e.name, e.location)) us += e.us;
    const percent = a.total > 0 ? Math.round((us * 1000) / a.total) / 10 : 0;
    attributed = ` Self time of ${attribute.label} with ${options.withName}: ${percent}% of the simulator's CPU.`;
  }
  const entries: ProfileEntry[] = diff([...fnA.keys(), ...fnB.keys()], fnA, fnB)
    .sort((x, y) => y[1] - x[1])
    .slice(0, top)
    .map(([k, us]) => {
      const e = (a.byFunction.get(k) ?? b.byFunction.get(k)) as SelfTime;
      return {
        functionName: e.name,
        location: e.location,
        selfMs: ms(us),
        selfPercent: share(us),
      };
    });
  const byArea: ProfileArea[] = diff([...a.areas.keys(), ...b.areas.keys()], a.areas, b.areas)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 8)
    .map(([area, us]) => ({ area, selfPercent: share(us) }));
  return {
    subject,
    file: `${path.relative(root, withRun.file)} - ${path.relative(root, withoutRun.file)}`,
    totalMs: ms(extra),
    top: entries,
    byArea,
    heading:
      `Where our simulator spends more with ${options.withName} than ${options.withoutName}: ${subject}. ` +
      `Difference of two CPU profiles per ${per.toLocaleString('en-US')} ${unit} ` +
      `(\`${path.relative(root, withRun.file)}\` minus \`${path.relative(root, withoutRun.file)}\`; ` +
      `profile samples per that work: ${ms(withPerUnit)} ms with, ${ms(b.total * scaleB)} ms without).${attributed} ` +
      "Self ms: a function's self time per that work with, minus without (negative: less with); " +
      'Self %: that difference as a share of all samples per that work with. ' +
      'The sampler follows wall time, so socket writes and time the process waited for a core swing from run to run ' +
      'on a busy machine; the lines only one side runs (journal, prom-client) are the reliable part, and the CPU rows of the table the cost figure.',
  };
}
