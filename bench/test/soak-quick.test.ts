import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSoak } from '../src/soak/run-soak';
import type { SoakReport } from '../src/soak/report';

// The soak's quick mode: both simulators as CLI processes (needs `npm run build`, which `npm test`
// runs first), a few dozen clients of each kind for five seconds, then the verdict.
describe('soak quick mode', () => {
  let outDir: string;
  let report: SoakReport;
  let files: { json: string; markdown: string };

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'racedata-soak-test-'));
    ({ report, files } = await runSoak({ quick: true, outDir, log: () => undefined }));
  }, 60_000);

  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
  });

  it('posts every kind of message and has each accepted', () => {
    for (const kind of ['legacyDurable', 'legacyNonDurable', 'jsonDurable', 'jsonTransient']) {
      expect(report.posted[kind]?.posted).toBeGreaterThan(0);
      expect(report.posted[kind]?.failed).toBe(0);
    }
    expect(report.totals.posted).toBeGreaterThan(0);
  });

  it('loses, duplicates and misroutes nothing', () => {
    // Legacy loss under hang-ups depends on the simulator's hang-up handling (see the report).
    expect(report.legacyDurable.lost).toBe(0);
    expect(report.jsonDurable.lost).toBe(0);
    expect(report.totals).toMatchObject({ lost: 0, duplicated: 0, foreign: 0, transientMissing: 0 });
    expect(report.jsonDurable.outOfOrder).toBe(0);
    expect(report.legacyDurable.deliveries).toBe(report.legacyDurable.expected);
    expect(report.jsonDurable.deliveries).toBe(report.jsonDurable.expected);
  });

  it('reports transient deliveries per client against what each client should get', () => {
    for (const t of [report.legacyStomp, report.jsonEventStream]) {
      expect(t.clients).toBeGreaterThan(0);
      expect(t.perClient.received.min).toBeGreaterThan(0);
      expect(t.perClient.received).toEqual(t.perClient.expected);
    }
  });

  it('measures latency per transport, RSS and the /health probe of each simulator', () => {
    expect(Object.keys(report.latency)).toHaveLength(4);
    for (const d of Object.values(report.latency)) {
      expect(d.count).toBeGreaterThan(0);
      expect(Number.isFinite(d.p99)).toBe(true);
    }
    for (const kind of ['legacy', 'json']) {
      const rss = report.rss[kind];
      expect(rss?.samples.length).toBeGreaterThanOrEqual(3);
      expect(rss?.peakKb).toBeGreaterThanOrEqual(rss?.endKb ?? Infinity);
      expect(report.probe[kind]?.count).toBeGreaterThan(0);
    }
  });

  it('gives a verdict line per target and an overall result', () => {
    const names = report.verdicts.map((v) => v.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'durable messages lost',
        'deliveries duplicated',
        'foreign-channel deliveries',
        'legacy RSS flat after warm-up',
        'json RSS flat after warm-up',
        'legacy /health probe p99',
        'json /health probe p99',
      ]),
    );
    for (const v of report.verdicts) expect(typeof v.pass).toBe('boolean');
    expect(report.pass).toBe(report.verdicts.every((v) => v.pass));
  });

  it('writes the report as JSON and markdown into the given directory', () => {
    expect(path.dirname(files.json)).toBe(outDir);
    const json = JSON.parse(readFileSync(files.json, 'utf8')) as SoakReport;
    expect(json.mode).toBe('quick');
    expect(json.totals).toEqual(report.totals);
    const markdown = readFileSync(files.markdown, 'utf8');
    expect(markdown).toContain('## Verdict');
    expect(markdown).toContain('durable messages lost');
  });
});
