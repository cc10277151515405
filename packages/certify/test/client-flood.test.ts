/**
 * Issue 30, Low: a client that floods its output (with --echo stdout certify reads every line)
 * and makes no request is told so, not only that it made no request; one that floods while it
 * polls is still graded on its requests, which a flood of lines no longer evicts.
 */
import path from 'node:path';
import { certify } from '../src/run/runner';
import type { SuiteDefinition, Suite } from '../src/types';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { definitions } = require('./fixtures/test-suites.cjs') as {
  definitions: Record<Suite, SuiteDefinition>;
};
const flooder = path.join(__dirname, 'fixtures', 'clients', 'floods-stdout.mjs');

function run(flood: 'only' | 'while-polling') {
  return certify({
    suite: 'events',
    definitions,
    only: ['sees-event'],
    echo: true,
    startupTimeoutMs: 3000,
    timeoutMs: 30_000,
    client: {
      command: process.execPath,
      args: [flooder],
      env: { ...process.env, FLOOD: flood },
      killAfterMs: 1000,
    },
  });
}

test('a client that floods its output and makes no request is told it flooded its output', async () => {
  const report = await run('only');
  expect(report.aborted).toMatch(
    /^the client made no request within 3 s of its start; it flooded its output instead \(\d+ lines \([\d.]+ MB\) on stdout\)$/,
  );
  expect(report.checks.map((c) => c.status)).toEqual(['fail']);
}, 30_000);

test('a client that floods its output while it polls is graded on its requests', async () => {
  const report = await run('while-polling');
  expect(report.aborted).toBeUndefined();
  expect(report.checks.map((c) => [c.id, c.status])).toEqual([['sees-event', 'pass']]);
}, 30_000);
