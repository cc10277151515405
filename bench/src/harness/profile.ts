import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProfileSummary } from '../types';

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Where code lives: our packages, each dependency, Node internals, GC and the like. */
function areaOf(name: string, location: string): string {
  if (location === '(native)') return name.startsWith('(') && name !== '(anonymous)' ? name : '(native)';
  if (location.startsWith('node:')) return 'node internals';
  return (
    (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(location) ??
      /^(packages\/[^/]+|bench)\//.exec(location))?.[1] ?? 'other'
  );
}

/** Self time per function (idle excluded), largest first, and by area; shares of the whole. */
export function summariseProfile(file: string, subject: string, root: string, top = 12) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const fns = new Map<string, { functionName: string; location: string; us: number }>();
  const areas = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const us = profile.timeDeltas[i + 1] ?? 0;
    if (!frame || frame.functionName === '(idle)') return;
    const functionName = frame.functionName || '(anonymous)';
    const url = frame.url.replace(/^file:\/\//, '');
    const location =
      url === ''
        ? '(native)'
        : `${url.startsWith(root) ? path.relative(root, url) : url}:${frame.lineNumber + 1}`;
    const entry = fns.get(`${functionName}@${location}`) ?? { functionName, location, us: 0 };
    fns.set(`${functionName}@${location}`, { ...entry, us: entry.us + us });
    areas.set(areaOf(functionName, location), (areas.get(areaOf(functionName, location)) ?? 0) + us);
    total += us;
  });
  const share = (us: number) => (total > 0 ? Math.round((us * 1000) / total) / 10 : 0);
  return {
    ...{ subject, file: path.relative(root, file), totalMs: Math.round(total / 1000) },
    top: [...fns.values()]
      .sort((x, y) => y.us - x.us)
      .slice(0, top)
      .map(({ us, ...e }) => ({ ...e, selfMs: Math.round(us / 100) / 10, selfPercent: share(us) })),
    byArea: [...areas.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 8)
      .map(([area, us]) => ({ area, selfPercent: share(us) })),
  };
}

/** The largest profiles a rerun wrote (at most `most`), summarised. */
export function profilesIn(dir: string, what: string, root: string, most = 2): ProfileSummary[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const summaries = files.map((f) =>
    summariseProfile(path.join(dir, f), `${f.replace(/\.\d+\.cpuprofile$/, '')}: ${what}`, root),
  );
  return summaries.sort((a, b) => b.totalMs - a.totalMs).slice(0, most);
}
