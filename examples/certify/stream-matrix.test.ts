import path from 'node:path';
import { certify, type CertifyReport as Report } from 'racedata-sim';

// Each client runs as its own process through the test kit's certify(), as a user's CI would.
const node = (file: string) => ({ command: process.execPath, args: [path.join(__dirname, file)] });
const statuses = (report: Report) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]));

describe('certify stream: the reference clients', () => {
  it('passes the well-behaved client on every check', async () => {
    const report = await certify({
      suite: 'stream',
      ...node('stream-client.mjs'),
      echo: true,
      timeoutMs: 90_000,
    });
    expect(statuses(report)).toEqual({
      'auth-key-secret': 'pass',
      'token-within-deadline': 'pass',
      'ignores-ping': 'pass',
      'receives-all': 'pass',
      'reconnect-after-close': 'pass',
      'reauth-on-auth-error': 'pass',
      'no-hot-loop': 'pass',
    });
    expect(report).toMatchObject({ suite: 'stream', passed: 7, failed: 0 });
  }, 100_000);

  it('fails ignores-ping for the client that drops its socket on a Ping', async () => {
    const report = await certify({
      suite: 'stream',
      ...node('broken/stream-drops-on-ping.mjs'),
      only: ['ignores-ping'],
      timeoutMs: 30_000,
    });
    expect(statuses(report)).toEqual({ 'ignores-ping': 'fail' });
    expect(report.checks[0]?.summary).toMatch(/^closed its session \(code 1000\) .* after 1 Ping/);
    expect(report.failed).toBe(1);
  }, 40_000);

  it('fails reconnect-after-close for the client that never reconnects', async () => {
    const report = await certify({
      suite: 'stream',
      ...node('broken/stream-never-reconnects.mjs'),
      only: ['reconnect-after-close'],
      timeoutMs: 30_000,
    });
    expect(statuses(report)).toEqual({ 'reconnect-after-close': 'fail' });
    expect(report.checks[0]?.summary).toBe('no new session within 5.0 s of the server closing it');
  }, 40_000);
});
