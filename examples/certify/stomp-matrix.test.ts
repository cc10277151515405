import path from 'node:path';
import { certify, type CertifyReport as Report } from 'racedata-sim';

// Each client runs as its own process through the test kit's certify(), as a user's CI would.
const node = (file: string) => ({ command: process.execPath, args: [path.join(__dirname, file)] });
const statuses = (report: Report) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]));

describe('certify stomp: the reference clients', () => {
  it('passes the well-behaved client on every check', async () => {
    const report = await certify({
      suite: 'stomp',
      ...node('stomp-client.mjs'),
      echo: true,
      timeoutMs: 90_000,
    });
    expect(statuses(report)).toEqual({
      'auth-key-secret': 'pass',
      'connects-with-bearer': 'pass',
      subscribes: 'pass',
      'receives-all': 'pass',
      'heart-beats': 'pass',
      'reconnect-after-close': 'pass',
      'no-hot-loop': 'pass',
    });
    expect(report).toMatchObject({ suite: 'stomp', passed: 7, failed: 0 });
  }, 100_000);

  it('fails reconnect-after-close for the client that never reconnects', async () => {
    const report = await certify({
      suite: 'stomp',
      ...node('broken/stomp-never-reconnects.mjs'),
      only: ['reconnect-after-close'],
      timeoutMs: 30_000,
    });
    expect(statuses(report)).toEqual({ 'reconnect-after-close': 'fail' });
    expect(report.checks[0]?.summary).toBe('no new session within 5.0 s of the server closing it');
  }, 40_000);

  it('fails reconnect-after-close for the client that reconnects without subscribing', async () => {
    const report = await certify({
      suite: 'stomp',
      ...node('broken/stomp-no-resubscribe.mjs'),
      only: ['reconnect-after-close'],
      timeoutMs: 30_000,
    });
    expect(statuses(report)).toEqual({ 'reconnect-after-close': 'fail' });
    expect(report.checks[0]?.summary).toMatch(/^reconnected after .* but never subscribed again/);
  }, 40_000);

  it('fails heart-beats for the client that offers heart-beats and never sends them', async () => {
    const report = await certify({
      suite: 'stomp',
      ...node('broken/stomp-silent-heart-beats.mjs'),
      only: ['heart-beats'],
      timeoutMs: 30_000,
    });
    expect(statuses(report)).toEqual({ 'heart-beats': 'fail' });
    expect(report.checks[0]?.summary).toBe(
      'the server timed its session out (1008) for missing the heart-beats it negotiated',
    );
  }, 40_000);
});
