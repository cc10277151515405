import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadRecordings } from '@racedata/core';
import { jsonChannelCatalog } from '@racedata/json-sim';
import { legacyChannelCatalog } from '@racedata/legacy-sim';
import { EDGE_CASE_IDS } from '@racedata/race-day';
import { run } from '../src/main';
import { fakeCli } from './cli-harness';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function outDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'race-day-'));
  dirs.push(dir);
  return dir;
}

async function raceDay(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = fakeCli();
  await run(['node', 'racedata-sim', 'race-day', ...args], cli.ctx);
  return { code: await cli.exited, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** Every file below `dir` with the hash of its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else
        out[rel] = createHash('sha256')
          .update(readFileSync(path.join(dir, rel)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

describe('racedata-sim race-day --out DIR', () => {
  it('writes both simulators’ recordings and the plan, the same bytes for the same options', async () => {
    const [a, b, c] = [outDir(), outDir(), outDir()];
    const args = ['--date', '2026-05-13', '--seed', '7', '--edge-cases', 'all'];
    const first = await raceDay('--out', a, ...args);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^race-day: 1 day from 2026-05-13, \d+ meetings, \d+ messages each in /);
    expect((await raceDay('--out', b, ...args)).code).toBe(0);
    expect(tree(a)).toEqual(tree(b));
    expect(
      (await raceDay('--out', c, '--date', '2026-05-13', '--seed', '8', '--edge-cases', 'all')).code,
    ).toBe(0);
    expect(tree(c)['plan.json']).not.toBe(tree(a)['plan.json']);
    const names = Object.keys(tree(a)).sort();
    expect(names.filter((n) => n.startsWith('json/'))).toEqual(
      names.filter((n) => n.startsWith('legacy/')).map((n) => n.replace('legacy/', 'json/')),
    );
    expect(names).toContain('plan.json');
  });

  it('writes recordings the replay loads whole, and a plan listing where each edge case sits', async () => {
    const dir = outDir();
    expect(
      (await raceDay('--out', dir, '--date', '2026-08-02', '--seed', '3', '--edge-cases', 'all')).code,
    ).toBe(0);
    const legacy = await loadRecordings(dir, 'legacy', { catalog: legacyChannelCatalog() });
    const json = await loadRecordings(dir, 'json', { catalog: jsonChannelCatalog() });
    expect(legacy.problems).toEqual([]);
    expect(json.problems).toEqual([]);
    expect(legacy.messages.map((m) => m.at)).toEqual(json.messages.map((m) => m.at));
    const plan = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8')) as {
      date: string;
      meetings: Array<{ races: Array<{ phase: string }> }>;
      edgeCases: Array<{ id: string; trackId: number }>;
    };
    expect(plan.date).toBe('2026-08-02');
    expect(new Set(plan.edgeCases.map((e) => e.id))).toEqual(new Set(EDGE_CASE_IDS));
    for (const e of plan.edgeCases)
      expect(Object.keys(e).every((k) => ['id', 'trackId', 'raceNr', 'startNr'].includes(k))).toBe(true);
    // At the end of its day every race has its result or was called off.
    expect(new Set(plan.meetings.flatMap((m) => m.races.map((r) => r.phase)))).toEqual(
      new Set(['result', 'cancelled']),
    );
  });

  it('writes several days, each with its plan', async () => {
    const dir = outDir();
    const result = await raceDay('--out', dir, '--date', '2026-12-30', '--days', '3', '--edge-cases', 'none');
    expect(result.code).toBe(0);
    const names = Object.keys(tree(dir));
    expect(names.filter((n) => n.startsWith('plans/')).sort()).toEqual([
      'plans/2026-12-30.json',
      'plans/2026-12-31.json',
      'plans/2027-01-01.json',
    ]);
    for (const date of ['2026-12-30', '2026-12-31', '2027-01-01'])
      expect(names.some((n) => n.startsWith(`json/${date}-`))).toBe(true);
    expect(readFileSync(path.join(dir, 'plan.json'), 'utf8')).toBe(
      readFileSync(path.join(dir, 'plans/2026-12-30.json'), 'utf8'),
    );
  });

  it.each([
    [
      ['--edge-cases', 'dead-heat,photo-fnish'],
      new RegExp(`--edge-cases: unknown edge case "photo-fnish"; known: ${EDGE_CASE_IDS.join(', ')}`),
    ],
    [['--date', '2026-02-30'], /--date: expected today or a real date YYYY-MM-DD, got "2026-02-30"/],
    [['--days', '0'], /--days: expected a whole number from 1 to 31, got "0"/],
    [['--days', '32'], /--days: expected a whole number from 1 to 31, got "32"/],
    [['--meetings', 'trot:5,gallop:1'], /--meetings: trot meetings must be a whole number from 0 to 4/],
    [['--meetings', 'trot:2,gallop:2'], /--meetings: gallop meetings must be a whole number from 0 to 1/],
    [['--edge-cases', 'dead-heat@999:1'], /no meeting at track 999 on 2026-05-13; meetings: 9\d\d/],
    [['--seed', '-3'], /--seed: expected a whole number/],
  ])('refuses %j with exit 2, saying why, and writes nothing', async (args, message) => {
    const dir = path.join(outDir(), 'out');
    const result = await raceDay('--out', dir, '--date', '2026-05-13', ...(args as string[]));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(existsSync(dir)).toBe(false);
  });

  it('names no race it cannot place a case at, with the races that exist', async () => {
    const dir = path.join(outDir(), 'out');
    const probe = outDir();
    await raceDay('--out', probe, '--date', '2026-05-13', '--meetings', 'trot:1', '--edge-cases', 'none');
    const plan = JSON.parse(readFileSync(path.join(probe, 'plan.json'), 'utf8')) as {
      meetings: Array<{ trackId: number; races: unknown[] }>;
    };
    const { trackId, races } = { trackId: plan.meetings[0]!.trackId, races: plan.meetings[0]!.races.length };
    const result = await raceDay(
      '--out',
      dir,
      '--date',
      '2026-05-13',
      '--meetings',
      'trot:1',
      '--edge-cases',
      `dead-heat@${trackId}:${races + 1}`,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`has no race ${races + 1}; its races are 1-${races}`);
    expect(existsSync(dir)).toBe(false);
  });
});
