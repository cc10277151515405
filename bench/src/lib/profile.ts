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

/** Self time per function (idle excluded), largest first. */
export function summariseProfile(file: string, subject: string, root: string, top = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { name: string; location: string; us: number }>();
  const areas = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i + 1] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') return;
    const name = node.callFrame.functionName || '(anonymous)';
    const location = shortLocation(node.callFrame.url, node.callFrame.lineNumber, root);
    const key = `${name}@${location}`;
    const entry = self.get(key) ?? { name, location, us: 0 };
    entry.us += delta;
    self.set(key, entry);
    const area = areaOf(name, location);
    areas.set(area, (areas.get(area) ?? 0) + delta);
    total += delta;
  });
  const entries: ProfileEntry[] = [...self.values()]
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
