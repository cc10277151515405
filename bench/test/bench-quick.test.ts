import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBench } from '../src/run-bench';
import type { BenchReport, Comparison } from '../src/types';

// The smoke run keeps the harness from rotting: every scenario must still produce numbers.
describe('bench quick mode', () => {
  let outDir: string;
  let report: BenchReport;
  const rows = (id: string): readonly Comparison[] =>
    report.measures.find((m) => m.id === id)?.comparisons ?? [];
  const spread = (row: Comparison) => {
    const [low, high] = row.ratioSpread ?? [NaN, NaN];
    expect(low).toBeLessThanOrEqual(row.ratio as number);
    expect(high).toBeGreaterThanOrEqual(row.ratio as number);
  };

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'racedata-bench-'));
    report = await runBench({ quick: true, outDir, log: () => undefined });
  }, 240_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  // Every measure but image-sizes, which reports the images only when they were built.
  const measured = [
    'delivery-latency',
    'fan-out',
    'read-throughput',
    'control-plane-cost',
    'start-up',
    'memory',
    'per-test-cost',
  ];

  it('runs every measure, and every scenario of each without failing', () => {
    expect(report.measures.map((m) => m.id)).toEqual([...measured, 'image-sizes']);
    for (const m of report.measures) expect(m.failures ?? []).toEqual([]);
  });

  it.each(measured)('%s produced a figure for ours and for its baseline in every row', (id) => {
    expect(rows(id).length).toBeGreaterThan(0);
    for (const row of rows(id)) {
      expect(Number.isFinite(row.ours)).toBe(true);
      if (row.baselines[0] && row.baselines[0].value !== null)
        expect(row.baselines[0].value).toBeGreaterThan(0);
      expect(['PASS', 'MISS', 'INFO']).toContain(row.verdict);
    }
  });

  it('measures latency as p50 and p99 against the bare forwarder', () => {
    const p99 = rows('delivery-latency').filter((r) => r.scenario.endsWith('p99'));
    expect(p99).toHaveLength(4);
    for (const row of p99) expect([row.ratio! > 0, row.target]).toEqual([true, 'p99 <= 2x bare']);
  });

  it('runs fan-out open loop against a bare ws broadcast: CPU per delivery, p99 and delivered rate', () => {
    // Per scenario (JSON event-stream, then legacy STOMP): the three figures, in this order.
    const figures = [
      ['server CPU per delivery', 'µs', '<= 1.1x bare'],
      ['p99 latency', 'ms', '<= 2x bare'],
      ['delivered msg/s', 'msg/s', 'keeps up: >= 0.98x offered'],
    ];
    const fanOut = rows('fan-out');
    expect(fanOut.map((r) => r.scenario.split(' (')[0])).toEqual([
      ...figures.map(() => 'JSON: transient /api/message -> WebSocket clients'),
      ...figures.map(() => 'legacy: NonDurable -> STOMP subscribers'),
    ]);
    fanOut.forEach((row, k) => {
      const [suffix, unit, target] = figures[k % 3] as string[];
      expect([row.scenario.endsWith(`: ${suffix}`), row.unit, row.target]).toEqual([true, unit, target]);
      expect(['PASS', 'MISS']).toContain(row.verdict);
      expect(row.baselines[0]).toEqual({ name: 'bare ws broadcast', value: expect.any(Number) });
      expect(row.ratio).toBeGreaterThan(0);
      spread(row);
      // Every client got every message on both sides, and every post was accepted; the clients
      // ran in processes of their own.
      expect(row.note ?? '').not.toMatch(/LOST|failed posts/);
      if (row.unit === 'msg/s') expect(row.note).toMatch(/each client process up to \d+% of a core/);
    });
    for (const row of fanOut.filter((r) => r.unit === 'msg/s')) {
      expect(row.baselines[1]).toEqual({ name: 'offered', value: 100 });
    }
  });

  it('compares reads of each store size with bare Node in paired rounds, then what request logging costs', () => {
    const read = rows('read-throughput');
    // Per store size (2,000 and 10,000 in quick mode): the page read and the filtered read, each
    // followed by both servers' CPU per 1,000 requests (INFO), then the query that matches
    // nothing and the selective filter against the page read; then the larger store's page read
    // against the smaller's; last, LOG_REQUESTS on against off: page reads (INFO) and CPU.
    const perStore = [
      ['req/s', false],
      ['ms', true],
      ['req/s', false],
      ['ms', true],
      ['req/s', false],
      ['req/s', true],
    ];
    expect(read.map((r) => [r.unit, r.verdict === 'INFO'])).toEqual([
      ...perStore,
      ...perStore,
      ['req/s', false],
      ['req/s', true],
      ['ms', false],
    ]);
    for (const row of read) {
      expect(row.ratio).toBeGreaterThan(0);
      spread(row);
      expect(row.note ?? '').not.toMatch(/failed requests/);
    }
    for (const [k, size] of ['2,000', '10,000'].entries()) {
      const store = read.slice(k * 6, k * 6 + 6).map((r) => r.scenario);
      expect(store[0]).toContain(`GET /customerapi/events?lastEventId=..&limit=100 over ${size} stored`);
      expect(store[2]).toContain(`channel&startDate&endDate over ${size} stored`);
      expect(store[4]).toContain(`trackId&raceNr&startNr matching nothing (whole date range) over ${size}`);
      expect(store[5]).toContain(`trackId&raceNr (1 event in 20 matches, whole date range) over ${size}`);
    }
    // The reference store (the smaller one) also has the peers to beat when they are installed.
    expect(read[0]?.target).toMatch(/^>= 70% of bare( and ahead of every peer)?$/);
    expect(read[4]?.target).toBe('costs <= 2x a page read (req/s >= 0.5x)');
    expect(read[12]?.scenario).toContain('flatness: 10,000 stored events against 2,000');
    expect(read[12]?.target).toContain('(>= 0.85x)');
    expect(read[13]?.scenario).toContain(
      'page reads with LOG_REQUESTS=true (a JSON log line a request, to a pipe) over 2,000',
    );
    expect(read[14]).toMatchObject({
      target: 'CPU per request on / off <= 1.3',
      baselines: [{ name: 'LOG_REQUESTS off' }],
    });
  });

  it('measures RSS, heap and seeding rate of the CLI filled over POST /_sim/events at each store size', () => {
    const memory = rows('memory');
    expect(memory[0]?.scenario).toBe('JSON simulator (racedata-sim json) idle RSS');
    for (const size of ['2,000', '10,000']) {
      const seeded = memory.filter((r) =>
        r.scenario.includes(`with ${size} events seeded over POST /_sim/events`),
      );
      // RSS per event, old generation's heap ratio (targeted), the whole heap's (INFO), seeding rate.
      expect(seeded.map((r) => r.unit)).toEqual(['B', 'x', 'x', 'events/s']);
      for (const row of seeded) expect(row.ours).toBeGreaterThan(0);
    }
    // The targets hold from the second size up; the smallest only shows its figures.
    const targets = memory
      .filter((r) => r.scenario.includes('with 10,000 events seeded'))
      .map((r) => r.target);
    expect(targets).toEqual(['<= 400 B', '<= 1.5', '—', '>= 200,000 events/s']);
    expect(memory.filter((r) => r.scenario.startsWith('JSON durable store: EVENT_STORE_MAX='))).toHaveLength(
      1,
    );
  });

  it('compares the control plane on against off for JSON and legacy delivery and for page reads', () => {
    const all = rows('control-plane-cost');
    // Each throughput row (with the target) is followed by the simulator's CPU per unit (INFO).
    expect(all.map((r) => r.unit)).toEqual(['msg/s', 'ms', 'msg/s', 'ms', 'msg/s', 'ms', 'req/s', 'ms']);
    const targeted = all.filter((r) => r.verdict !== 'INFO');
    expect(targeted.map((r) => r.scenario)).toEqual([
      expect.stringContaining('JSON: transient POST /api/message -> event-stream WebSocket'),
      expect.stringContaining('JSON: durable POST /api/message -> held GET /customerapi/events'),
      expect.stringContaining('legacy: POST NonDurable -> STOMP'),
      expect.stringContaining('GET /customerapi/events?lastEventId=..&limit=100'),
    ]);
    for (const row of targeted) {
      expect([row.baselines[0]?.name, row.target]).toEqual([
        'control plane off',
        'on / off >= 0.90 (costs at most 10%)',
      ]);
      spread(row);
    }
  });

  it('starts both commands against bare Node, and startSimulators() in-process against two bare servers', () => {
    const start = rows('start-up');
    expect(start.map((r) => r.target)).toEqual([
      'within 1.3x of bare node and faster than every peer',
      'within 1.3x of bare node and faster than every peer',
      expect.any(String),
      '—',
      '—',
    ]);
    expect(start[2]?.scenario).toMatch(/^startSimulators\(\) in-process: both simulators/);
    expect(start[2]?.baselines[0]?.name).toBe('bare Node in-process');
  });

  it('times what a suite pays per test on both simulators, each against its baseline', () => {
    const perTest = rows('per-test-cost').map((r) => r.scenario.replace(/, p50 of \d+$/, ''));
    expect(perTest).toEqual([
      'json: POST /_sim/sandboxes',
      'legacy: POST /_sim/sandboxes',
      'json: POST /_sim/reset after one POST /api/message',
      'legacy: POST /_sim/reset after one POST /customerapi/channel/id/Durable',
      'json: first POST /api/message after POST /_sim/reset',
      'legacy: first POST /customerapi/channel/id/Durable after POST /_sim/reset',
    ]);
  });

  it('writes latest.md and latest.json into the given directory', () => {
    const markdown = readFileSync(path.join(outDir, 'latest.md'), 'utf8');
    const json = JSON.parse(readFileSync(path.join(outDir, 'latest.json'), 'utf8')) as BenchReport;
    expect(markdown).toContain('## Delivery latency');
    expect(markdown).toContain(`${report.machine.cores} cores`);
    expect(json.mode).toBe('quick');
    expect(json.measures).toHaveLength(8);
  });

  it('says when the peers were skipped', () => {
    if (!report.peers.includes('skipped')) return expect(report.peers).toMatch(/json-server \d/);
    expect(report.measures.find((m) => m.id === 'read-throughput')?.notes.join(' ')).toContain(
      'peers skipped',
    );
  });
});
