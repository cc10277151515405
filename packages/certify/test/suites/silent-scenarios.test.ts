/**
 * detects-silent-stream and detects-silent-session on virtual time: each limit is measured from
 * the simulator's last frame to the silenced session, and every way a client can miss it is told
 * apart.
 */
import { silentScenario as silentSession } from '../../src/suites/stomp/silent';
import { silentScenario as silentStream } from '../../src/suites/stream/silent';
import type { CheckResult } from '../../src/types';
import { closed, FakeContext, opened, USER } from './fake-context';

const PING = '{"type":"Ping","timestamp":"2026-05-11T12:00:00.000Z","id":"p"}';

/** A stream session open, silenced 300 ms after the simulator's last frame to it (a Ping). */
function streamSilenced(client: (fake: FakeContext) => void): FakeContext {
  return new FakeContext().after(10, opened('event-stream')).on('silence', (fake) => {
    fake.silenced = [{ path: '/customerapi/event-stream', lastFrameAt: fake.time - 300, lastFrame: PING }];
    client(fake);
  });
}

async function one(promise: Promise<readonly CheckResult[]>): Promise<CheckResult> {
  const [result] = await promise;
  if (!result) throw new Error('no result');
  return result;
}

describe('detects-silent-stream (virtual time)', () => {
  it('passes a client that closes the silent session and is back within 3 Ping intervals plus 5 s', async () => {
    const fake = streamSilenced((f) =>
      f.after(2_200, closed('event-stream', 1006)).after(2_500, opened('event-stream')),
    );
    const result = await one(silentStream.run(fake.context()));
    expect(result).toMatchObject({
      status: 'pass',
      summary:
        "closed the silent session 2.5 s after the simulator's last message to it and had a new one 2.8 s after it " +
        '(limit 8.0 s: 3 Ping intervals of 1000 ms plus 5.0 s)',
    });
    expect(result.evidence.map((e) => e.what)).toContain("the simulator's last frame to it: a Ping message");
    expect(fake.calls).not.toContain('closeConnections');
  });

  it('fails a client that keeps the silent session, and closes it for the scenarios after', async () => {
    const fake = streamSilenced(() => undefined);
    const result = await one(silentStream.run(fake.context()));
    expect(result.status).toBe('fail');
    expect(result.summary).toMatch(/^kept the silent session open and opened no new one for 8\.0 s/);
    expect(fake.calls).toContain('closeConnections');
  });

  it('fails a client that closes the silent session but is not back in time', async () => {
    const fake = streamSilenced((f) =>
      f.after(2_000, closed('event-stream', 1000)).after(7_800, opened('event-stream')),
    );
    const result = await one(silentStream.run(fake.context()));
    expect(result.status).toBe('fail');
    expect(result.summary).toMatch(
      /^closed the silent session 2\.3 s after .* but had no new authenticated session within 8\.0 s/,
    );
  });

  it('fails a client that opens a new session but leaves the silent one open', async () => {
    const fake = streamSilenced((f) => f.after(2_500, opened('event-stream')));
    const result = await one(silentStream.run(fake.context()));
    expect(result.status).toBe('fail');
    expect(result.summary).toMatch(/but did not close the silent one/);
  });

  it('skips when there is no session to silence', async () => {
    const result = await one(silentStream.run(new FakeContext().context()));
    expect(result).toMatchObject({ status: 'skip' });
  });
});

const connectedFrame = (sendEveryMs: number) =>
  ({ kind: 'stomp-connected', user: USER, version: '1.2', expectEveryMs: 1_000, sendEveryMs }) as const;

/** A STOMP session that asked for the server's heart-beats every `sendEveryMs`, silenced 200 ms after one. */
function stompSilenced(sendEveryMs: number, client: (fake: FakeContext) => void): FakeContext {
  return new FakeContext()
    .after(10, opened('stomp'))
    .after(20, connectedFrame(sendEveryMs))
    .on('silence', (fake) => {
      fake.silenced = [{ path: '/api/v1/channels/connect', lastFrameAt: fake.time - 200, lastFrame: '\n' }];
      client(fake);
    });
}

describe('detects-silent-session (virtual time)', () => {
  it('warns, and leaves the session alone, when the client negotiated no server heart-beats', async () => {
    const fake = stompSilenced(0, () => undefined);
    const result = await one(silentSession.run(fake.context()));
    expect(result.status).toBe('warn');
    expect(result.summary).toMatch(/^negotiated no heart-beats from the server/);
    expect(fake.calls.filter((c) => c.startsWith('silence'))).toEqual([]);
  });

  it('fails a client that keeps a session whose heart-beats stopped', async () => {
    const fake = stompSilenced(2_000, () => undefined);
    const result = await one(silentSession.run(fake.context()));
    expect(result.status).toBe('fail');
    expect(result.summary).toBe(
      "kept the silent session open 9.0 s after the server's last heart-beat (2 of the 2000 ms intervals it " +
        'negotiated, plus 5.0 s): it does not act on the heart-beats it asked for',
    );
    expect(fake.calls).toContain('closeConnections');
  });

  it('passes a client that drops the session and is subscribed again in time', async () => {
    const fake = stompSilenced(2_000, (f) =>
      f.after(4_100, closed('stomp', 1006)).after(4_600, opened('stomp')),
    );
    fake.on('journal', (f) => {
      if (f.time > 1_000_000 + 4_700) {
        const probe =
          f.calls
            .filter((c) => c.startsWith('inject '))
            .pop()
            ?.slice(7) ?? '';
        f.journalEntries = [{ seq: 1, payloadKey: probe, time: new Date(f.time).toISOString() }];
      }
    });
    const result = await one(silentSession.run(fake.context()));
    expect(result.status).toBe('pass');
    expect(result.summary).toMatch(
      /^dropped the silent session 4\.3 s after the last heart-beat and was subscribed again/,
    );
  });
});
