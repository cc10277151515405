import { closeAll } from '@racedata/test-support';
import { startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';
import { AUTH, readPage, seedEvents, stateUntil } from './control-load-support';

// Journal waits against the simulator in its own process, as a suite's client meets them.
afterEach(closeAll);

interface Page {
  entries: Array<{ seq: number; kind: string }>;
}

describe('GET /_sim/journal/wait under load', () => {
  test('a wait for many entries costs each new entry one test: the page read and /health stay fast', async () => {
    const sim = await startJson();
    await seedEvents(sim.base, 8000);
    expect(await readPage(sim.base, 0, 4000)).toBe(4000);
    // 4,000 matching entries held; the wait needs 8,000. Re-reading the journal for each new
    // match built some 24 million entry objects for the next 4,000 entries.
    // Caught here, so a test failing before it is awaited leaves no stray rejection behind.
    const answered = fetch(`${sim.base}/_sim/journal/wait?kind=delivered&count=8000&timeout=60000`).catch(
      (err: unknown) => err as Error,
    );
    await stateUntil(sim.base, (state) => state.journal.waiters === 1);
    const started = performance.now();
    expect(await readPage(sim.base, 4000, 4000)).toBe(4000);
    const health = await fetch(`${sim.base}/health`, { signal: AbortSignal.timeout(10_000) });
    const answer = await answered;
    if (answer instanceof Error) throw answer;
    const elapsed = performance.now() - started;
    expect(health.status).toBe(200);
    expect(answer.status).toBe(200);
    const page = (await answer.json()) as Page;
    expect(page.entries).toHaveLength(8000);
    expect(page.entries[7999]).toMatchObject({ seq: 8000, kind: 'delivered' });
    // Milliseconds with the fix; tens of seconds without it (a generous bound for a busy machine).
    expect(elapsed).toBeLessThan(5000);
  });

  test('past JOURNAL_WAITERS_MAX a wait is answered 429, and a wait whose client left is freed', async () => {
    const sim = await startJson({ JOURNAL_WAITERS_MAX: '2' });
    const wait = () => {
      const controller = new AbortController();
      const answer = fetch(`${sim.base}/_sim/journal/wait?count=1&timeout=60000`, {
        signal: controller.signal,
      }).catch(() => 'aborted');
      return { abort: () => controller.abort(), answer };
    };
    const held = [wait(), wait()];
    await stateUntil(sim.base, (state) => state.journal.waiters === 2);
    const refused = await fetch(`${sim.base}/_sim/journal/wait?count=1&timeout=60000`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      status: 'fail',
      code: 'JOURNAL_WAITERS_LIMIT',
      message: expect.stringContaining('JOURNAL_WAITERS_MAX'),
    });
    for (const h of held) h.abort();
    expect(await Promise.all(held.map((h) => h.answer))).toEqual(['aborted', 'aborted']);
    await stateUntil(sim.base, (state) => state.journal.waiters === 0);
    // Room again: a new wait is held and answered by the next entry.
    const next = fetch(`${sim.base}/_sim/journal/wait?kind=delivered&count=1&timeout=60000`);
    await stateUntil(sim.base, (state) => state.journal.waiters === 1);
    await seedEvents(sim.base, 1);
    await fetch(`${sim.base}/customerapi/events?lastEventId=0`, { headers: AUTH });
    expect((await next).status).toBe(200);
  });
});

/** The JSON simulator as its own process, without replay, logging warnings and worse as JSON. */
function startJson(env: Record<string, string> = {}): Promise<SimProcess> {
  return startSimProcess('json', ['--no-replay'], { LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env });
}
