import { CertificationBoard } from '../src/run/certification-board';
import { CERTIFY_TIMINGS } from '../src/timings';
import type { CheckInfo, CheckResult } from '../src/types';

const info = (id: string, required = true): CheckInfo => ({
  id,
  required,
  rule: `the client does ${id}`,
  source: 'interface 4.3',
});
const result = (id: string, status: CheckResult['status'], more: Partial<CheckResult> = {}): CheckResult => ({
  id,
  status,
  required: true,
  summary: `${id} ${status}`,
  evidence: [{ at: '2026-11-26T10:00:00.000Z', what: `GET /customerapi/events -> 200 (${id})` }],
  ...more,
});

function board(client: string | undefined) {
  return new CertificationBoard({
    suite: 'events',
    client,
    timings: CERTIFY_TIMINGS,
    scenarios: [
      { name: 'authenticates', checks: [info('auth-key-secret')] },
      { name: 'long polls', checks: [info('repoll-after-200'), info('repoll-after-204', false)] },
    ],
    now: () => Date.parse('2026-11-26T10:00:00.000Z'),
  });
}

describe('CertificationBoard', () => {
  it('lists every selected check as pending from the start, waiting for the client', () => {
    const state = board('node client.mjs').current();
    expect(state).toMatchObject({
      suite: 'events',
      client: 'node client.mjs',
      attached: false,
      startedAt: '2026-11-26T10:00:00.000Z',
      timings: { longPollTimeoutMs: CERTIFY_TIMINGS.longPollTimeoutMs },
      phase: 'waiting',
      passed: 0,
      failed: 0,
    });
    expect(state.checks.map((c) => [c.id, c.scenario, c.status, c.required, c.summary])).toEqual([
      ['auth-key-secret', 'authenticates', 'pending', true, 'the client does auth-key-secret'],
      ['repoll-after-200', 'long polls', 'pending', true, 'the client does repoll-after-200'],
      ['repoll-after-204', 'long polls', 'pending', false, 'the client does repoll-after-204'],
    ]);
    expect(board(undefined).current()).toMatchObject({ client: 'attached', attached: true });
  });

  it('folds the run: the scenario playing, each check graded in place, counts, and the finish', () => {
    const b = board('node client.mjs');
    const changes = jest.fn();
    b.onChange(changes);
    b.fold({ type: 'client-ready', suite: 'events', afterMs: 230 });
    b.fold({
      type: 'scenario-start',
      suite: 'events',
      name: 'authenticates',
      checks: [info('auth-key-secret')],
    });
    expect(b.current()).toMatchObject({
      phase: 'playing',
      scenario: 'authenticates',
      clientReadyAfterMs: 230,
    });
    b.fold({ type: 'check', suite: 'events', result: result('auth-key-secret', 'pass') });
    expect(b.current().checks[0]).toEqual({
      id: 'auth-key-secret',
      scenario: 'authenticates',
      required: true,
      status: 'pass',
      summary: 'auth-key-secret pass',
      evidence: [
        { at: '2026-11-26T10:00:00.000Z', what: 'GET /customerapi/events -> 200 (auth-key-secret)' },
      ],
    });
    expect(
      b
        .current()
        .checks.slice(1)
        .map((c) => c.status),
    ).toEqual(['pending', 'pending']);
    b.fold({ type: 'scenario-start', suite: 'events', name: 'long polls', checks: [] });
    b.fold({
      type: 'check',
      suite: 'events',
      result: result('repoll-after-200', 'fail', { expectedFailure: true }),
    });
    b.fold({
      type: 'check',
      suite: 'events',
      result: result('repoll-after-204', 'warn', { required: false }),
    });
    // An expected failure is shown as one but does not count, as in the report.
    expect(b.current().checks[1]).toMatchObject({ status: 'fail', expectedFailure: true });
    expect(b.current()).toMatchObject({ passed: 1, failed: 0 });
    b.fold({ type: 'suite-end', suite: 'events' });
    expect(b.current().phase).toBe('finished');
    expect(b.current().scenario).toBeUndefined();
    expect(b.current().aborted).toBeUndefined();
    expect(changes).toHaveBeenCalledTimes(7);
  });

  it('counts a required failure, and says why a suite was aborted', () => {
    const b = board('node client.mjs');
    b.fold({ type: 'scenario-start', suite: 'events', name: 'authenticates', checks: [] });
    b.fold({ type: 'check', suite: 'events', result: result('auth-key-secret', 'fail') });
    b.fold({
      type: 'check',
      suite: 'events',
      result: result('repoll-after-200', 'fail', {
        summary: 'not graded: client exited with code 3 after 812 ms',
      }),
    });
    b.fold({
      type: 'suite-end',
      suite: 'events',
      aborted: 'not graded: client exited with code 3 after 812 ms',
    });
    expect(b.current()).toMatchObject({
      phase: 'aborted',
      aborted: 'client exited with code 3 after 812 ms',
      passed: 0,
      failed: 2,
    });
    expect(b.current().checks.map((c) => c.status)).toEqual(['fail', 'fail', 'pending']);
  });

  it("ignores another suite's events, and stops calling a listener that unsubscribed", () => {
    const b = board('node client.mjs');
    const changes = jest.fn();
    const off = b.onChange(changes);
    b.fold({ type: 'check', suite: 'stream', result: result('auth-key-secret', 'pass') });
    expect(b.current().checks[0]?.status).toBe('pending');
    off();
    b.fold({ type: 'client-ready', suite: 'events', afterMs: 5 });
    expect(changes).not.toHaveBeenCalled();
  });
});
