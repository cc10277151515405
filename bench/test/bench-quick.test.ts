import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBench } from '../src/run-bench';
import type { BenchReport, Comparison } from '../src/types';

/**
 * Every row of a quick run, by measure: its scenario, unit and target ('—': none). The smoke run
 * keeps the harness from rotting: each must still be there, and produce numbers.
 */
const PAGE = 'GET /customerapi/events?lastEventId=..&limit=100 over';
const FILTERED = 'GET /customerapi/filtered-events?channel&startDate&endDate over';
const PER_STORE = (size: string) => [
  [`${PAGE} ${size} stored events`, 'req/s', /^>= 70% of bare( and ahead of every peer)?$/],
  [`${PAGE} ${size} stored events: server CPU per 1,000 requests`, 'ms', '—'],
  [`${FILTERED} ${size} stored events`, 'req/s', '>= 50% of bare'],
  [`${FILTERED} ${size} stored events: server CPU per 1,000 requests`, 'ms', '—'],
  [
    `GET /customerapi/filtered-events?channel&startDate&endDate&trackId&raceNr&startNr matching nothing (whole date range) over ${size} stored events`,
    'req/s',
    'costs <= 2x a page read (req/s >= 0.5x)',
  ],
  [
    `GET /customerapi/filtered-events?startDate&endDate&trackId&raceNr (1 event in 20 matches, whole date range) over ${size} stored events`,
    'req/s',
    '—',
  ],
];
const CONTROL = (label: string, unit: string, work: string) => [
  [label, unit, 'on / off >= 0.90 (costs at most 10%)'],
  [`${label}: simulator CPU per 1,000 ${work}`, 'ms', '—'],
];
const FLAT = 'GET /customerapi/events page reads, flatness:';
const DELIVERIES = (label: string) => CONTROL(label, 'msg/s', 'messages');
const LOGGED =
  'GET /customerapi/events page reads with LOG_REQUESTS=true (a JSON log line a request, to a pipe) over 2,000 stored events';
const FAN_OUT = (label: string) => [
  [`${label} (50 clients, 100 msg/s offered): server CPU per delivery`, 'µs', '<= 1.1x bare'],
  [`${label} (50 clients, 100 msg/s offered): p99 latency`, 'ms', '<= 2x bare'],
  [`${label} (50 clients, 100 msg/s offered): delivered msg/s`, 'msg/s', 'keeps up: >= 0.98x offered'],
];
const SEEDED = (size: string, targets: string[]) =>
  [
    'RSS per stored event, 3 s after the fill, no GC',
    'RSS per stored event beyond its own JSON, after GC',
    'heapTotal / heapUsed, old generation',
    'seeding rate (wall)',
  ].map((what, k) => [
    `JSON simulator (racedata-sim json) with ${size} events seeded over POST /_sim/events: ${what}`,
    ['B', 'B', 'x', 'events/s'][k],
    targets[k],
  ]);
const LATENCY = (label: string) => [
  [`${label}, p50`, 'ms', '—'],
  [`${label}, p99`, 'ms', 'p99 <= 2x bare'],
];
const START = 'within 1.3x of bare node and faster than every peer';
const TESTKIT =
  'startSimulators() in-process: both simulators, from loading the test kit to both answering /health';
type Row = [scenario: string, unit: string, target: string | RegExp];
const BOTH = (row: (kind: string) => Row) => ['json', 'legacy'].map(row);
/** A per-test cost on both simulators; POST_NAME is the message post of each. */
const PER_TEST = (label: string, target: string): Row[] =>
  Object.entries({ json: 'POST /api/message', legacy: 'POST /customerapi/channel/id/Durable' }).map(
    ([kind, post]) => [`${kind}: ${label.replace('POST_NAME', post)}`, 'ms', target],
  );
const DAY_START = 'simulator start with RACE_DAY=today (edge cases all) against without';
const DAY_TARGET = 'within 1.3x of the start without a day';
const PLAN = 'JSON as GET /_sim/race-day answers, and as held';
const ROWS: Record<string, Row[]> = {
  'delivery-latency': [
    ...LATENCY('JSON: POST /api/message -> held GET /customerapi/events'),
    ...LATENCY('JSON: POST /api/message -> WebSocket Data'),
    ...LATENCY('legacy: POST NonDurable -> STOMP MESSAGE'),
    ...LATENCY('legacy: POST Durable -> held GET /customerapi/channels/listen'),
  ] as Row[],
  'fan-out': [
    ...FAN_OUT('JSON: transient /api/message -> WebSocket clients'),
    ...FAN_OUT('legacy: NonDurable -> STOMP subscribers'),
  ] as Row[],
  'read-throughput': [
    ...PER_STORE('2,000'),
    ...PER_STORE('10,000'),
    [`${FLAT} 10,000 stored events against 2,000`, 'req/s', /\(>= 0\.85x\)$/],
    [LOGGED, 'req/s', '—'],
    [`${LOGGED}: simulator CPU per 1,000 requests`, 'ms', 'CPU per request on / off <= 1.3'],
  ] as Row[],
  'control-plane-cost': [
    ...DELIVERIES('JSON: transient POST /api/message -> event-stream WebSocket clients (20 clients)'),
    ...DELIVERIES('JSON: durable POST /api/message -> held GET /customerapi/events polls (10 clients)'),
    ...DELIVERIES('legacy: POST NonDurable -> STOMP subscribers (20 clients)'),
    ...CONTROL(`${PAGE} 2,000 stored events`, 'req/s', 'requests'),
  ] as Row[],
  'start-up': [
    ...BOTH((k) => [`${k} simulator (racedata-sim ${k}), median of 1`, 'ms', START]),
    [`${TESTKIT}, median of 1`, 'ms', '<= 15x bare Node in-process'],
    ...BOTH((k) => [`${k} simulator, first start after a build (no code cache yet)`, 'ms', '—']),
  ] as Row[],
  memory: [
    ['JSON simulator (racedata-sim json) idle RSS', 'MB', '—'],
    ...SEEDED('2,000', ['—', '—', '—', '—']),
    // The targets hold from the second size up; the smallest only shows its figures.
    ...SEEDED('10,000', ['—', '—', '<= 1.5', '>= 200,000 events/s']),
    ['JSON simulator started with --seed 10,000: generation rate (server CPU)', 'events/s', '—'],
    ['legacy simulator idle RSS', 'MB', '—'],
    ['legacy simulator RSS with 5,000 queued messages', 'MB', '—'],
    ['JSON durable store: EVENT_STORE_MAX=1,000, 3,000 injected over HTTP', 'x', /^RSS stops growing/],
    ['legacy queue: LEGACY_QUEUE_MAX=500, 1,500 injected over HTTP', 'x', /^RSS stops growing/],
  ] as Row[],
  'per-test-cost': [
    ...PER_TEST('POST /_sim/sandboxes, p50 of 20', '< 5 ms'),
    ...PER_TEST('POST /_sim/reset after one POST_NAME, p50 of 20', '<= 1.5x GET /health'),
    ...PER_TEST('first POST_NAME after POST /_sim/reset, p50 of 20', '<= 1.25x the second'),
  ],
  'race-day': [
    ['generate one day of three meetings (plan and every message), median of 3', 'ms', 'under 300 ms'],
    ["generate 7 consecutive days (the calendar's meetings)", 'ms', '—'],
    [`plan of the largest day (4 trot meetings, 1 gallop, every edge case): ${PLAN}`, 'MB', 'under 20 MB'],
    ['racedata-sim race-day --out DIR, one day (process, files included)', 'ms', '—'],
    ...BOTH((k) => [`${k} ${DAY_START}, median of 2`, 'ms', DAY_TARGET]),
  ],
};

describe('bench quick mode', () => {
  let outDir: string;
  let report: BenchReport;
  const rows = (id: string): readonly Comparison[] =>
    report.measures.find((m) => m.id === id)?.comparisons ?? [];

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'racedata-bench-'));
    report = await runBench({ quick: true, outDir, log: () => undefined });
  }, 240_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('runs every measure, and every scenario of each without failing', () => {
    expect(report.measures.map((m) => m.id)).toEqual([...Object.keys(ROWS), 'image-sizes']);
    for (const m of report.measures) expect(m.failures ?? []).toEqual([]);
  });

  it.each(Object.keys(ROWS))('%s has every row, each with a figure for ours and its baseline', (id) => {
    const wanted = ROWS[id]?.map(([s, unit, t]) => [
      s,
      unit,
      typeof t === 'string' ? t : expect.stringMatching(t),
    ]);
    expect(rows(id).map((r) => [r.scenario, r.unit, r.target])).toEqual(wanted);
    for (const row of rows(id)) {
      expect(Number.isFinite(row.ours)).toBe(true);
      if (row.baselines[0] && row.baselines[0].value !== null)
        expect(row.baselines[0].value).toBeGreaterThan(0);
      expect(row.verdict).toMatch(row.target === '—' ? /^INFO$/ : /^(PASS|MISS)$/);
      if (row.ratioSpread) expect(row.ratioSpread[0]).toBeLessThanOrEqual(row.ratio as number);
      if (row.ratioSpread) expect(row.ratioSpread[1]).toBeGreaterThanOrEqual(row.ratio as number);
      // Every client got every message, every post and request was accepted.
      expect(row.note ?? '').not.toMatch(/LOST|failed posts|failed requests/);
    }
  });

  it('runs fan-out against a bare ws broadcast, its clients in processes of their own', () => {
    for (const row of rows('fan-out')) {
      expect(row.baselines[0]).toEqual({ name: 'bare ws broadcast', value: expect.any(Number) });
      if (row.unit === 'msg/s') expect(row.baselines[1]).toEqual({ name: 'offered', value: 100 });
      if (row.unit === 'msg/s') expect(row.note).toMatch(/each client process up to \d+% of a core/);
    }
  });

  it('holds each switch against its own off side and startSimulators() against two bare servers', () => {
    const baseline = (id: string, k: number) => rows(id)[k]?.baselines[0]?.name;
    expect([0, 2, 4, 6].map((k) => baseline('control-plane-cost', k))).toEqual(
      Array(4).fill('control plane off'),
    );
    expect(baseline('read-throughput', 14)).toBe('LOG_REQUESTS off');
    expect(baseline('start-up', 2)).toBe('bare Node in-process');
  });

  it('writes latest.md and latest.json into the given directory', () => {
    const markdown = readFileSync(path.join(outDir, 'latest.md'), 'utf8');
    const json = JSON.parse(readFileSync(path.join(outDir, 'latest.json'), 'utf8')) as BenchReport;
    expect(markdown).toContain('## Delivery latency');
    expect(markdown).toContain(`${report.machine.cores} cores`);
    expect([json.mode, json.measures.length]).toEqual(['quick', 9]);
  });

  it('says when the peers were skipped', () => {
    if (!report.peers.includes('skipped')) return expect(report.peers).toMatch(/json-server \d/);
    expect(report.measures.find((m) => m.id === 'read-throughput')?.notes.join(' ')).toContain(
      'peers skipped',
    );
  });
});
