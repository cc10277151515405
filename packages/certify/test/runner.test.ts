import path from 'node:path';
import { certify, type CertifyOptions } from '../src/run/runner';
import { CertifyError } from '../src/errors';
import type { Report, Scenario } from '../src/types';
import {
  alwaysFails,
  noVerdict,
  seesEvent,
  testDefinitions,
  throws,
  waitsForever,
} from './fixtures/test-suites.cjs';

const clients = path.join(__dirname, 'fixtures', 'clients');
const node = (script: string) => ({ command: process.execPath, args: [path.join(clients, script)], env: {} });

function run(scenarios: Scenario[], options: Partial<CertifyOptions> = {}): Promise<Report> {
  return certify({
    suite: 'events',
    definitions: testDefinitions(scenarios),
    client: node('poller.mjs'),
    ...options,
  });
}

const byId = (report: Report, id: string) => {
  const check = report.checks.find((c) => c.id === id);
  if (!check) throw new Error(`no check ${id} in ${JSON.stringify(report.checks)}`);
  return check;
};

describe('certify runner', () => {
  it('plays every scenario against the client and grades each check, never a silent pass', async () => {
    const report = await run([seesEvent, alwaysFails, throws, noVerdict]);
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['sees-event', 'pass'],
      ['always-fails', 'fail'],
      ['optional-fails', 'fail'],
      ['throws', 'fail'],
      ['no-verdict', 'skip'],
    ]);
    expect(byId(report, 'sees-event').evidence[0]?.what).toMatch(/^GET \/customerapi\/events -> 200$/);
    expect(byId(report, 'throws').summary).toMatch(/scenario "throws" failed: scenario broke on purpose/);
    expect(byId(report, 'no-verdict').summary).toMatch(/gave no verdict/);
    // The optional check's failure does not count; the two required failures do.
    expect(report).toMatchObject({ suite: 'events', passed: 1, failed: 2 });
    expect(report.aborted).toBeUndefined();
    expect(report.command).toContain('poller.mjs');
  });

  it('plays only the checks --only names, and not the scenarios of the others', async () => {
    const played = jest.fn();
    const counted: Scenario = { ...alwaysFails, run: (ctx) => (played(), alwaysFails.run(ctx)) };
    const report = await run([seesEvent, counted], { only: ['sees-event'] });
    expect(report.checks.map((c) => c.id)).toEqual(['sees-event']);
    expect(played).not.toHaveBeenCalled();
    expect(report.failed).toBe(0);
  });

  it('does not count an expected failure, and marks it in the report', async () => {
    const report = await run([alwaysFails], { expectedFailures: ['always-fails'] });
    expect(byId(report, 'always-fails')).toMatchObject({ status: 'fail', expectedFailure: true });
    expect(report.failed).toBe(0);
  });

  it('turns a client that exits early into a failed report with its exit code and last stderr lines', async () => {
    // Were the exit missed, the run would wait out its scenarios and this test its timeout.
    const report = await run([seesEvent, alwaysFails], { client: node('exits-early.mjs') });
    expect(report.aborted).toMatch(/^client exited with code 3 after \d+ ms; its last stderr lines:\n/);
    expect(report.aborted).toContain('fatal: cannot parse configuration');
    expect(byId(report, 'sees-event')).toMatchObject({ status: 'fail' });
    expect(byId(report, 'sees-event').summary).toMatch(
      /^not graded: client exited with code 3 after \d+ ms$/,
    );
    // Not graded is a failure for required checks and a skip for optional ones.
    expect(byId(report, 'optional-fails').status).toBe('skip');
    expect(report.failed).toBe(2);
  });

  it('gives up on a client that never makes a request', async () => {
    const report = await run([seesEvent], { client: node('silent.mjs'), startupTimeoutMs: 300 });
    expect(report.aborted).toBe('the client made no request within 0.3 s of its start');
    expect(byId(report, 'sees-event').status).toBe('fail');
  });

  it('stops at --timeout: what was not graded fails, and says why', async () => {
    const report = await run([seesEvent, waitsForever, alwaysFails], { timeoutMs: 2_500 });
    expect(byId(report, 'sees-event').status).toBe('pass');
    expect(byId(report, 'waits-forever')).toMatchObject({
      status: 'fail',
      summary: 'not graded: the run timed out after 2.5 s',
    });
    expect(byId(report, 'always-fails').summary).toBe('not graded: the run timed out after 2.5 s');
    expect(report.aborted).toBe('the run timed out after 2.5 s');
  });

  it('on Ctrl-C stops the client and returns the partial report', async () => {
    const interrupt = new AbortController();
    const report = await run([seesEvent, waitsForever, alwaysFails], {
      signal: interrupt.signal,
      progress: (event) => {
        if (event.type === 'scenario-start' && event.name === 'waits-forever') interrupt.abort();
      },
    });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['sees-event', 'pass'],
      ['waits-forever', 'skip'],
      ['always-fails', 'skip'],
      ['optional-fails', 'skip'],
    ]);
    expect(report.aborted).toBe('interrupted');
    expect(report.failed).toBe(0);
  });

  it('names each check by its suite when all suites run', async () => {
    const report = await run([alwaysFails], { suite: 'all', only: ['events/always-fails'] });
    expect(report.suite).toBe('all');
    expect(report.checks.map((c) => c.id)).toEqual(['events/always-fails']);
  });

  it('refuses bad input before anything starts', async () => {
    const definitions = testDefinitions([alwaysFails]);
    const codeOf = (options: Partial<CertifyOptions>) =>
      certify({ suite: 'events', definitions, client: node('poller.mjs'), ...options }).then(
        () => 'resolved',
        (err: unknown) => (err instanceof CertifyError ? `${err.code}: ${err.message}` : String(err)),
      );
    await expect(codeOf({ only: ['nope'] })).resolves.toBe(
      'UNKNOWN_CHECK: --only: no check "nope" in this run (checks: always-fails, optional-fails)',
    );
    await expect(codeOf({ expectedFailures: ['stream/always-fails'] })).resolves.toMatch(
      /^UNKNOWN_CHECK: --expected-failures/,
    );
    await expect(
      codeOf({ client: { command: 'no-such-client-command', args: [], env: { PATH: clients } } }),
    ).resolves.toBe('CLIENT_NOT_FOUND: client command "no-such-client-command" was not found on PATH');
    await expect(codeOf({ client: { command: './missing.mjs', args: [], env: {} } })).resolves.toBe(
      'CLIENT_NOT_FOUND: client command "./missing.mjs" is not an executable file',
    );
  });
});
