import path from 'node:path';
import { startClient } from '../src/client/client-process';
import { resolveCommand } from '../src/client/resolve-command';
import type { TrafficEvent } from '../src/types';

const clients = path.join(__dirname, 'fixtures', 'clients');
const started: Array<number | undefined> = [];

// Should stop() ever fail to end a client, the test fails on its timeout and leaves nothing behind.
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      if (pid !== undefined) process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
});

describe('client process', () => {
  it('sends SIGTERM, then SIGKILL once the kill delay has passed', async () => {
    const events: TrafficEvent[] = [];
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const client = startClient({
      command: process.execPath,
      args: [path.join(clients, 'ignores-sigterm.mjs')],
      env: {},
      echo: true,
      record: (e) => events.push(e),
      now: Date.now,
      killAfterMs: 300,
      onOutput: (_stream, line) => line === 'ready' && ready(),
    });
    started.push(client.pid);
    await isReady;
    const asked = Date.now();
    const exit = await client.stop();
    expect(exit).toMatchObject({ code: null, signal: 'SIGKILL' });
    expect(exit.at - asked).toBeGreaterThanOrEqual(250);
    expect(
      events.filter((e) => e.kind === 'client-line').map((e) => (e.kind === 'client-line' ? e.line : '')),
    ).toEqual(['ready', 'ignoring SIGTERM']);
    expect(events.at(-1)).toMatchObject({ kind: 'client-exit', signal: 'SIGKILL' });
  });

  it('reads stdout lines as client lines only with --echo, and keeps the last stderr lines', async () => {
    const events: TrafficEvent[] = [];
    const client = startClient({
      command: process.execPath,
      args: [
        '-e',
        'console.log("42"); for (let i = 0; i < 30; i++) console.error("line " + i); process.exit(5)',
      ],
      env: {},
      echo: false,
      record: (e) => events.push(e),
      now: Date.now,
    });
    started.push(client.pid);
    await expect(client.exited).resolves.toMatchObject({ code: 5, signal: null });
    expect(events.map((e) => e.kind)).toEqual(['client-exit']);
    expect(client.stderrTail()).toHaveLength(20);
    expect(client.stderrTail().at(-1)).toBe('line 29');
  });
});

describe('resolveCommand', () => {
  it('finds a name on PATH and a relative path, and refuses what is not there', () => {
    const dir = path.dirname(process.execPath);
    expect(resolveCommand(path.basename(process.execPath), `/nonexistent:${dir}`, '/')).toBe(
      process.execPath,
    );
    expect(resolveCommand(`./${path.basename(process.execPath)}`, undefined, dir)).toBe(process.execPath);
    expect(() => resolveCommand('racedata-no-such-client', dir, '/')).toThrow(
      'client command "racedata-no-such-client" was not found on PATH',
    );
    // A file that is there but cannot be run is refused too, not left to a spawn error later.
    expect(() => resolveCommand('./poller.mjs', undefined, clients)).toThrow('is not an executable file');
    expect(() => resolveCommand('', dir, '/')).toThrow('is empty');
  });
});
