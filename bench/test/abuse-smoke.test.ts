import { abuseMarkdown, PHASES, runAbuse, type AbuseReport } from '../src/abuse/run-abuse';

// The abuse run at its smallest: every phase against fresh CLI simulator processes (needs
// `npm run build`, which `npm test` runs first). It checks the report's shape, not its verdicts:
// several targets are missed until the abuses the run measures are fixed. It writes no file.
describe('abuse run, smoke mode', () => {
  let report: AbuseReport;

  beforeAll(async () => {
    report = await runAbuse({ mode: 'smoke', log: () => undefined });
  }, 90_000);

  it('runs every phase, once each, in order', () => {
    expect(report.mode).toBe('smoke');
    expect(report.phases.map((p) => p.id)).toEqual(PHASES.map((p) => p.id));
    expect(report.phases.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('measures /health, RSS and log lines of every simulator process of every phase', () => {
    for (const phase of report.phases) {
      expect(phase.processes.length).toBeGreaterThan(0);
      for (const p of phase.processes) {
        expect(['json', 'legacy']).toContain(p.simulator);
        expect(p.health.count).toBeGreaterThan(0);
        expect(Number.isFinite(p.health.p99)).toBe(true);
        expect(p.rss.startMb).toBeGreaterThan(0);
        expect(p.rss.peakMb).toBeGreaterThanOrEqual(Math.max(p.rss.startMb, p.rss.endMb));
        expect(p.logs.maxPerSecond).toBeLessThanOrEqual(p.logs.total);
        expect(p.logs.maxPerSecondOneCause).toBeLessThanOrEqual(p.logs.maxPerSecond);
        expect(p.alive).toBe(true);
      }
    }
  });

  it('gives each phase its own checks and the process checks, each with target, value and verdict', () => {
    // Each phase's own first check, by phase id.
    const own = ['messages lost', 'messages lost', 'messages lost', 'console stream bytes to one reader'];
    own.push('polls still held after every client hung up', 'cross-sandbox reads that succeeded');
    own.push('5xx answers to advances', 'posts accepted');
    for (const phase of report.phases) {
      const names = phase.verdicts.map((v) => v.name);
      expect(names).toContain(own[phase.id - 1]);
      for (const { simulator: s } of phase.processes)
        expect(names).toEqual(expect.arrayContaining([`${s} /health p99`, `${s} RSS`, `${s} log lines`]));
      const text = expect.any(String);
      for (const v of phase.verdicts)
        expect(v).toEqual({ name: text, target: text, value: text, pass: expect.any(Boolean) });
    }
  });

  it('lists every missed target, and passes only with none', () => {
    const missed = report.phases.flatMap((p) => p.verdicts.filter((v) => !v.pass));
    expect(report.failures).toHaveLength(missed.length);
    expect(report.pass).toBe(missed.length === 0);
  });

  it('renders a markdown table row per simulator process and a section per phase', () => {
    const markdown = abuseMarkdown(report);
    for (const phase of report.phases) expect(markdown).toContain(`## ${phase.id}. ${phase.title}`);
    expect(markdown).toMatch(/\| 1\. hang-up storm on the legacy listen \| legacy \| [\d.]+ ms/);
    expect(markdown.match(/\*\*(PASS|MISS)\*\*/g)?.length).toBe(
      report.phases.reduce((n, p) => n + p.verdicts.length, 0),
    );
  });
});
