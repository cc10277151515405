import { TOKENS } from '@racedata/test-support';
/**
 * What the control-plane load tests do to a JSON simulator running as its own process (see
 * test-support/sim-process.ts): fill its store, read pages, wait for its state.
 */

export const AUTH = { authorization: `Bearer ${TOKENS.testuser}` };

/** POSTs `count` events to the JSON simulator's store in one NDJSON body. */
export async function seedEvents(base: string, count: number): Promise<void> {
  const line = JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', payload: { horse: 'Åskvigg' } });
  const res = await fetch(`${base}/_sim/events`, { method: 'POST', body: `${line}\n`.repeat(count) });
  if (res.status !== 201) throw new Error(`seeding answered ${res.status}: ${await res.text()}`);
}

/** testuser reads `limit` events after `after`: one delivered journal entry per event. */
export async function readPage(base: string, after: number, limit: number): Promise<number> {
  const res = await fetch(`${base}/customerapi/events?lastEventId=${after}&limit=${limit}`, {
    headers: AUTH,
  });
  const body = (await res.json()) as { data: { numberOfEvents: number } };
  return body.data.numberOfEvents;
}

/** The part of GET /_sim/state these tests look at. */
export interface StateView {
  readonly journal: { readonly lastSeq: number; readonly waiters?: number };
}

/** Polls GET /_sim/state until `test` holds (state with no event of its own); bounded. */
export async function stateUntil(
  base: string,
  test: (state: StateView) => boolean,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await (await fetch(`${base}/_sim/state`)).json()) as StateView;
    if (test(state)) return;
    if (Date.now() > deadline) throw new Error(`state never matched: ${JSON.stringify(state).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
