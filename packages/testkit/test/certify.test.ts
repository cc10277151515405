import path from 'node:path';
import { certify, CertifyError } from 'racedata-sim';

const clients = path.resolve(__dirname, '..', '..', 'certify', 'test', 'fixtures', 'clients');

describe('certify() in the test kit', () => {
  it('starts the client with the environment given, and reports a client that ends early', async () => {
    const report = await certify({
      suite: 'events',
      command: 'node',
      args: [
        '-e',
        'console.error("bye from " + process.env.CLIENT_NAME); process.exit(Number(process.env.CODE))',
      ],
      env: { CLIENT_NAME: 'test kit', CODE: '7' },
      timeoutMs: 30_000,
    });
    expect(report.suite).toBe('events');
    expect(report.command).toMatch(/^node -e /);
    expect(report.aborted).toMatch(
      /^client exited with code 7 after \d+ ms; its last stderr lines:\n {2}bye from test kit$/,
    );
    // Whatever the suite's checks are, none of them was graded a pass.
    expect(report.checks.filter((c) => c.status === 'pass')).toEqual([]);
  });

  it('rejects a usage error with a CertifyError before anything starts', async () => {
    await expect(certify({ suite: 'events', command: path.join(clients, 'no-such-client') })).rejects.toThrow(
      CertifyError,
    );
    await expect(certify({ suite: 'evnts' as 'events', command: 'node' })).rejects.toThrow(
      /unknown suite "evnts"/,
    );
    await expect(certify({ suite: 'events', command: 'node', only: ['no-such-check'] })).rejects.toThrow(
      /--only: no check "no-such-check"/,
    );
  });
});
