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

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('posts every kind of message and has each accepted', () => {
    const transports = Object.values(report.transports);
    expect(Object.keys(report.transports)).toEqual([
      ...['legacy listen', 'JSON /events', 'legacy STOMP', 'JSON event-stream'],
    ]);
    for (const t of transports) expect([t.posted > 0, t.failed]).toEqual([true, 0]);
    expect(report.totals.posted).toBe(transports.reduce((n, t) => n + t.posted, 0));
  });

  it('loses, duplicates and misroutes nothing', () => {
    // Legacy loss under hang-ups depends on the simulator's hang-up handling (see the report).
    expect(report.totals).toMatchObject({ lost: 0, duplicated: 0, foreign: 0, transientMissing: 0 });
    for (const t of Object.values(report.transports)) {
      expect([t.missing, t.outOfOrder, t.corrupt]).toEqual([0, 0, 0]);
      expect(t.expected).toBeGreaterThan(0);
    }
    // A legacy queue is its user's (any one of its pollers reads a message), a JSON reader each poller.
    for (const name of ['legacy listen', 'JSON /events'])
      expect(report.transports[name]?.deliveries).toBe(report.transports[name]?.expected);
    expect(report.transports['legacy listen']?.polls.hangUps).toBeGreaterThan(0);
  });

  it('reports deliveries per client against what each client should get', () => {
    for (const name of ['legacy STOMP', 'JSON event-stream']) {
      const t = report.transports[name];
      expect(t?.clients).toBeGreaterThan(0);
      expect(t?.perReceiver.received.min).toBeGreaterThan(0);
      expect(t?.perReceiver.received).toEqual(t?.perReceiver.expected);
    }
  });

  it('measures latency per transport, RSS and the /health probe of each simulator', () => {
    for (const t of Object.values(report.transports)) {
      expect(t.latency.count).toBeGreaterThan(0);
      expect(Number.isFinite(t.latency.p99)).toBe(true);
    }
    for (const kind of ['legacy', 'json']) {
      const sim = report.simulators[kind];
      expect(sim?.samples.length).toBeGreaterThanOrEqual(3);
      expect(sim?.peakKb).toBeGreaterThanOrEqual(sim?.endKb ?? Infinity);
      expect(sim?.health.count).toBeGreaterThan(0);
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
        'legacy /health p99',
        'json /health p99',
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
