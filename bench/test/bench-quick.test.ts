import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBench } from '../src/run-bench';
import type { BenchReport } from '../src/types';

// The smoke run keeps the harness from rotting: every measure must still produce numbers.
describe('bench quick mode', () => {
  let outDir: string;
  let report: BenchReport;

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'racedata-bench-'));
    report = await runBench({ quick: true, outDir, log: () => undefined });
  }, 240_000);

  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
  });

  // Every measure but image-sizes, which reports the images only when they were built.
  const measured = [
    'delivery-latency',
    'fan-out',
    'read-throughput',
    'control-plane-cost',
    'start-up',
    'memory',
    'sandbox-create',
  ];

  it('runs every measure', () => {
    expect(report.measures.map((m) => m.id)).toEqual([...measured, 'image-sizes', 'race-day']);
  });

  it.each([...measured, 'race-day'])(
    '%s produced a figure for ours and for the bare baseline in every row',
    (id) => {
      const measure = report.measures.find((m) => m.id === id);
      expect(measure?.notes.filter((n) => n.startsWith('the measure failed'))).toEqual([]);
      expect(measure?.comparisons.length).toBeGreaterThan(0);
      for (const row of measure?.comparisons ?? []) {
        expect(Number.isFinite(row.ours)).toBe(true);
        if (row.ratioLabel === 'ours / bare' && row.baselines[0]?.value !== null) {
          expect(Number.isFinite(row.baselines[0]?.value)).toBe(true);
        }
        expect(['PASS', 'MISS', 'INFO']).toContain(row.verdict);
      }
    },
  );

  it('measures latency as p50 and p99 against the bare forwarder', () => {
    const rows = report.measures.find((m) => m.id === 'delivery-latency')?.comparisons ?? [];
    const p99 = rows.filter((r) => r.scenario.endsWith('p99'));
    expect(p99.length).toBeGreaterThanOrEqual(2);
    for (const row of p99) {
      expect(row.ratio).toBeGreaterThan(0);
      expect(row.target).toBe('p99 <= 2x bare');
    }
  });

  it('runs fan-out open loop against a bare ws broadcast: CPU per delivery, p99 and delivered rate', () => {
    const rows = report.measures.find((m) => m.id === 'fan-out')?.comparisons ?? [];
    // Per scenario (JSON event-stream, then legacy STOMP): the three figures, in this order.
    const figures = [
      { suffix: 'server CPU per delivery', unit: 'µs', target: '<= 1.1x bare' },
      { suffix: 'p99 latency', unit: 'ms', target: '<= 2x bare' },
      { suffix: 'delivered msg/s', unit: 'msg/s', target: 'keeps up: >= 0.98x offered' },
    ];
    expect(rows.map((r) => r.scenario.split(' (')[0])).toEqual([
      ...figures.map(() => 'JSON: transient /api/message -> WebSocket clients'),
      ...figures.map(() => 'legacy: NonDurable -> STOMP subscribers'),
    ]);
    rows.forEach((row, k) => {
      const figure = figures[k % figures.length];
      expect(row.scenario.endsWith(`: ${figure?.suffix}`)).toBe(true);
      expect(row.unit).toBe(figure?.unit);
      expect(row.target).toBe(figure?.target);
      expect(['PASS', 'MISS']).toContain(row.verdict);
      expect(row.ours).toBeGreaterThan(0);
      expect(row.baselines[0]?.name).toBe('bare ws broadcast');
      expect(row.baselines[0]?.value).toBeGreaterThan(0);
      expect(row.ratio).toBeGreaterThan(0);
      const [low, high] = row.ratioSpread ?? [NaN, NaN];
      expect(low).toBeLessThanOrEqual(row.ratio as number);
      expect(high).toBeGreaterThanOrEqual(row.ratio as number);
      // Every client got every message on both sides, and every post was accepted.
      expect(row.note ?? '').not.toMatch(/LOST|failed posts/);
    });
    const offered = rows.filter((r) => r.unit === 'msg/s').map((r) => r.baselines[1]);
    for (const figure of offered) expect(figure).toEqual({ name: 'offered', value: 100 });
  });

  it('compares reads of each store size with bare Node in paired rounds, with CPU per request, a no-match filter and flatness', () => {
    const rows = report.measures.find((m) => m.id === 'read-throughput')?.comparisons ?? [];
    // Per store size (2,000 and 10,000 in quick mode): the page read and the filtered read, each
    // followed by both servers' CPU per 1,000 requests (INFO), then the query that matches
    // nothing against the page read and the selective filter against it (INFO); then request
    // logging's cost to the reference store's page read (INFO); last, the larger store's page
    // read against the smaller's.
    const perStore = [
      ['req/s', false],
      ['ms', true],
      ['req/s', false],
      ['ms', true],
      ['req/s', false],
      ['req/s', true],
    ];
    expect(rows.map((r) => [r.unit, r.verdict === 'INFO'])).toEqual([
      ...perStore,
      ...perStore,
      ['req/s', true],
      ['req/s', false],
    ]);
    for (const row of rows) {
      expect(Number.isFinite(row.baselines[0]?.value)).toBe(true);
      expect(row.ratio).toBeGreaterThan(0);
      const [low, high] = row.ratioSpread ?? [NaN, NaN];
      expect(low).toBeLessThanOrEqual(row.ratio as number);
      expect(high).toBeGreaterThanOrEqual(row.ratio as number);
      expect(row.note ?? '').not.toMatch(/failed requests/);
    }
    for (const [k, size] of ['2,000', '10,000'].entries()) {
      const store = rows.slice(k * 6, k * 6 + 6);
      expect(store[0]?.scenario).toContain(
        `GET /customerapi/events?lastEventId=..&limit=100 over ${size} stored`,
      );
      // The reference store (the smaller one) also has the peers to beat when they are installed.
      expect(store[0]?.target).toMatch(/^>= 70% of bare( and ahead of every peer)?$/);
      expect(store[2]?.scenario).toContain(`channel&startDate&endDate over ${size} stored`);
      expect(store[4]?.scenario).toContain(
        `trackId&raceNr&startNr matching nothing (whole date range) over ${size}`,
      );
      expect(store[4]?.target).toBe('costs <= 2x a page read (req/s >= 0.5x)');
      expect(store[5]?.scenario).toContain(
        `trackId&raceNr (1 event in 20 matches, whole date range) over ${size}`,
      );
    }
    // The reference (smaller) store's page read again, on a simulator logging every request.
    expect(rows[12]?.scenario).toContain(
      'page reads with LOG_REQUESTS=true (a JSON log line a request) over 2,000',
    );
    expect(rows[13]?.scenario).toContain('flatness: 10,000 stored events against 2,000');
    expect(rows[13]?.target).toContain('(>= 0.85x)');
  });

  it('measures RSS, heap and seeding rate of the CLI filled over POST /_sim/events at each store size', () => {
    const rows = report.measures.find((m) => m.id === 'memory')?.comparisons ?? [];
    expect(rows[0]?.scenario).toBe('JSON simulator (racedata-sim json) idle RSS');
    for (const size of ['2,000', '10,000']) {
      const seeded = rows.filter((r) =>
        r.scenario.includes(`with ${size} events seeded over POST /_sim/events`),
      );
      // RSS per event, old generation's heap ratio (targeted), the whole heap's (INFO), seeding rate.
      expect(seeded.map((r) => r.unit)).toEqual(['B', 'x', 'x', 'events/s']);
      for (const row of seeded) expect(row.ours).toBeGreaterThan(0);
    }
    // The targets hold from the second size up; the smallest only shows its figures.
    const targets = rows.filter((r) => r.scenario.includes('with 10,000 events seeded')).map((r) => r.target);
    expect(targets).toEqual(['<= 400 B', '<= 1.5', '—', '>= 200,000 events/s']);
    expect(rows.filter((r) => r.scenario.startsWith('JSON durable store: EVENT_STORE_MAX='))).toHaveLength(1);
  });

  it('compares the control plane on against off for JSON and legacy delivery and for page reads', () => {
    const all = report.measures.find((m) => m.id === 'control-plane-cost')?.comparisons ?? [];
    // Each throughput row (with the target) is followed by the simulator's CPU per unit (INFO).
    const rows = all.filter((r) => r.verdict !== 'INFO');
    expect(all.filter((r) => r.verdict === 'INFO').map((r) => r.unit)).toEqual(['ms', 'ms', 'ms', 'ms']);
    expect(rows.map((r) => r.scenario)).toEqual([
      expect.stringContaining('JSON: transient POST /api/message -> event-stream WebSocket'),
      expect.stringContaining('JSON: durable POST /api/message -> held GET /customerapi/events'),
      expect.stringContaining('legacy: POST NonDurable -> STOMP'),
      expect.stringContaining('GET /customerapi/events?lastEventId=..&limit=100'),
    ]);
    for (const row of rows) {
      expect(row.baselines[0]?.name).toBe('control plane off');
      expect(Number.isFinite(row.baselines[0]?.value)).toBe(true);
      expect(row.ratio).toBeGreaterThan(0);
      const [low, high] = row.ratioSpread ?? [NaN, NaN];
      expect(low).toBeLessThanOrEqual(row.ratio as number);
      expect(high).toBeGreaterThanOrEqual(row.ratio as number);
      expect(row.target).toBe('on / off >= 0.90 (costs at most 10%)');
    }
  });

  it('writes latest.md and latest.json into the given directory', () => {
    const markdown = readFileSync(path.join(outDir, 'latest.md'), 'utf8');
    const json = JSON.parse(readFileSync(path.join(outDir, 'latest.json'), 'utf8')) as BenchReport;
    expect(markdown).toContain('## Delivery latency');
    expect(markdown).toContain(`${report.machine.cores} cores`);
    expect(markdown).toContain(report.machine.node);
    expect(json.mode).toBe('quick');
    expect(json.measures).toHaveLength(9);
  });

  it('says when the peers were skipped', () => {
    if (report.peers.includes('skipped')) {
      const read = report.measures.find((m) => m.id === 'read-throughput');
      expect(read?.notes.join(' ')).toContain('peers skipped');
    } else {
      expect(report.peers).toMatch(/json-server \d/);
    }
  });
});
