import fc from 'fast-check';
import { healthCheck, startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';
import { fuzzRequest, send, type Answer, type FuzzRequest } from './control-fuzz-cases';

// Garbage at every /_sim/* route of each simulator running as its own process: every answer is a
// well-formed response below 500 in the control plane's error shape, the process stays up and
// quick, and a refused request changes nothing.

/** The console's routes, which the OpenAPI document leaves to the console (console-routes.ts). */
const CONSOLE_ROUTES = [
  '/',
  '/_sim/stream',
  '/_sim/catalog',
  '/_sim/users',
  '/_sim/replay',
  '/_sim/messages/{seq}',
  '/_sim/ui',
  '/_sim/ui/console.js',
  '/_sim/events',
  '/_sim/nowhere',
];

/** A journal wait or the stream may be held; anything else unanswered this long is a stall. */
const HOLD_MS = 1500;
const HEALTHY_MS = 1000;

interface Snapshot {
  readonly clockOffsetMs: unknown;
  readonly store: unknown;
  readonly queues: unknown;
  readonly journal: unknown;
  readonly replay: unknown;
  readonly faults: unknown;
  readonly sandboxes: readonly string[];
}

async function getJson(base: string, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(base + path);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** What a control request may change, without the clock's running time. */
async function snapshot(base: string): Promise<Snapshot> {
  const [state, faults, sandboxes] = await Promise.all([
    getJson(base, '/_sim/state'),
    getJson(base, '/_sim/faults'),
    getJson(base, '/_sim/sandboxes'),
  ]);
  return {
    clockOffsetMs: state.clockOffsetMs,
    store: state.store,
    queues: state.queues,
    journal: state.journal,
    replay: state.replay,
    faults: faults.rules,
    sandboxes: (sandboxes.sandboxes as Array<{ id: string }>).map((s) => s.id).sort(),
  };
}

const NODE_REFUSALS = [400, 408, 413, 414, 431];
/** Bodies past what loopback socket buffers take in at once (see the reset case below). */
const LARGE_BODY_BYTES = 256 * 1024;

function checkAnswer(kind: 'json' | 'legacy', r: FuzzRequest, a: Answer): void {
  const where = `${r.method} ${r.path.slice(0, 120)} -> ${a.status} ${a.text.slice(0, 200)}`;
  if (a.held) {
    // Only a journal wait (up to its timeout) or the stream may keep a request open.
    expect({ where, holdable: /\/_sim\/(journal\/wait|stream)/i.test(r.path) }).toEqual({
      where,
      holdable: true,
    });
    return;
  }
  if (a.status === -1) {
    // A reset is an answer only to a large body or head. Node answers 413/431/404 before it has
    // read all of it and, the exchange being Connection: close, closes without lingering: the
    // kernel resets the connection while the client still sends, and the answer may be lost.
    const headBytes = Object.values(r.headers).reduce((n, v) => n + v.length, r.path.length);
    expect({ where, large: (r.body?.length ?? 0) > LARGE_BODY_BYTES || headBytes > 16_000 }).toEqual({
      where,
      large: true,
    });
    return;
  }
  expect({ where, ok: a.status >= 200 && a.status < 500 }).toEqual({ where, ok: true });
  if (r.method === 'HEAD' || a.status === 204 || (a.status >= 300 && a.status < 400)) return;
  if (a.status >= 400) {
    if (a.contentType === undefined) {
      // Refused by Node's parser before any route (huge head, bad request line): no body.
      expect({ where, status: NODE_REFUSALS.includes(a.status) }).toEqual({ where, status: true });
      return;
    }
    expect({ where, type: a.contentType }).toEqual({
      where,
      type: expect.stringMatching(/^application\/json/),
    });
    const body = JSON.parse(a.text) as unknown;
    // Outside /_sim/ (`/`, a path in another case) the simulator's own catalog answers; the JSON
    // simulator's public errors carry no code.
    const control = /^\/(sandboxes\/[^/]*\/)?_sim\//.test(r.path) || kind === 'legacy';
    const code = control ? expect.stringMatching(/^[A-Z_]+$/) : expect.anything();
    expect({ where, body: control ? body : { code: 'n/a', ...(body as object) } }).toEqual({
      where,
      body: { status: 'fail', code, message: expect.any(String) },
    });
    expect((body as { message: string }).message.length).toBeLessThan(1200);
    return;
  }
  if (a.contentType?.startsWith('application/json')) JSON.parse(a.text);
}

describe.each(['json', 'legacy'] as const)('fuzzing the %s control plane over real sockets', (kind) => {
  let sim: SimProcess;
  let templates: string[];
  const ids: string[] = [];

  beforeAll(async () => {
    // A small sandbox cap, so the fuzz reaches 429 rather than starting a hundred sandboxes.
    sim = await startSimProcess(kind, [], {
      LOG_LEVEL: 'warn',
      SANDBOX_MAX: '3',
      JOURNAL_MAX: '200',
      LONG_POLL_TIMEOUT_MS: '200',
    });
    const doc = await getJson(sim.base, '/_sim/openapi.json');
    templates = [...Object.keys(doc.paths as object), ...CONSOLE_ROUTES].filter(
      (p) => p.startsWith('/_sim/') || p === '/' || p === '/health' || p === '/metrics',
    );
    expect(templates).toEqual(
      expect.arrayContaining(['/_sim/faults/{id}', '/_sim/sandboxes/{id}', '/_sim/journal/wait']),
    );
  });

  afterAll(async () => {
    await sim?.close();
  });

  /** Fault and sandbox ids that exist now, so a fuzzed DELETE or prefix can hit one. */
  async function refreshIds(): Promise<void> {
    const faults = (await getJson(sim.base, '/_sim/faults')).rules as Array<{ id: string }>;
    const sandboxes = (await getJson(sim.base, '/_sim/sandboxes')).sandboxes as Array<{ id: string }>;
    ids.splice(0, ids.length, ...sandboxes.map((s) => s.id), ...faults.map((f) => f.id));
  }

  it('answers every request below 500 in the error shape, stays up and quick, and a refusal changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fuzzRequest(templates, () => ids),
        async (r) => {
          await refreshIds();
          const before = await snapshot(sim.base);
          const answer = await send(sim.port, r, HOLD_MS);
          checkAnswer(kind, r, answer);
          if (answer.status >= 400) expect(await snapshot(sim.base)).toEqual(before);
          const health = await healthCheck(sim.port);
          expect({ alive: sim.alive(), health: health.status, quick: health.ms < HEALTHY_MS }).toEqual({
            alive: true,
            health: 200,
            quick: true,
          });
        },
      ),
      { numRuns: 250, seed: 20261126, endOnFailure: true },
    );
    expect(sim.output()).not.toMatch(/unexpected (control-plane|console) error/);
  }, 120_000);

  it('refuses a fault rule whose body nests 100,000 levels, and the rule list still answers', async () => {
    const levels = 100_000;
    const rule = `{"match":{"path":"/x"},"action":{"type":"status","status":418,"body":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}}`;
    const before = await snapshot(sim.base);
    const res = await fetch(`${sim.base}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: rule,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/64 levels/),
    });
    expect(await snapshot(sim.base)).toEqual(before);
  });
});
