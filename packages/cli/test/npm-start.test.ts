import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { TOKENS } from '@racedata/test-support';

// The README's first command as a real process tree: npm -> sh -> npm -> node. A signal sent to
// the outer npm must reach the simulators, or they keep both ports after npm has exited.
const root = path.resolve(__dirname, '..', '..', '..');
const trees: ChildProcess[] = [];

afterEach(() => {
  for (const tree of trees.splice(0)) {
    // The whole group, so a simulator left behind by a failed assertion cannot keep jest alive.
    if (tree.pid !== undefined) {
      try {
        process.kill(-tree.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    }
  }
});

function npmStart(): { child: ChildProcess; output: (pattern: RegExp) => Promise<RegExpExecArray> } {
  const child = spawn(
    'npm',
    // No --host: npm start listens on 127.0.0.1 by default (checked below).
    ['start', '--', '--json-port', '0', '--legacy-port', '0', '--log-level', 'warn'],
    { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOST: '' } },
  );
  trees.push(child);
  let text = '';
  const waiters: Array<() => void> = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of waiters) waiter();
  });
  const output = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(text);
        if (match) resolve(match);
      };
      waiters.push(check);
      check();
      child.once('exit', (code) =>
        reject(new Error(`npm start exited (${code}) before ${pattern}:\n${text}`)),
      );
    });
  return { child, output };
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

async function portsOf(output: (pattern: RegExp) => Promise<RegExpExecArray>): Promise<[number, number]> {
  await output(/see data:[\s\S]*event-stream/);
  const json = Number((await output(/JSON simulator listening on http:\/\/[^:]+:(\d+)/))[1]);
  const legacyPort = Number((await output(/legacy XML simulator listening on http:\/\/[^:]+:(\d+)/))[1]);
  return [json, legacyPort];
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'starts both simulators with a race day flowing, and %s to npm stops them',
    async (signal) => {
      const { child, output } = npmStart();
      const [jsonPort, legacyPort] = await portsOf(output);
      // This machine only, unless --host says otherwise.
      await output(/JSON simulator listening on http:\/\/127\.0\.0\.1:\d+ \(bound to 127\.0\.0\.1\)/);
      await output(/legacy XML simulator listening on http:\/\/127\.0\.0\.1:\d+ \(bound to 127\.0\.0\.1\)/);
      const replay = (await output(/^replay: .*$/m))[0];
      expect(replay).toContain('replay: on in legacy and json');
      expect(replay).toContain('dates rebased to today');
      expect(replay).toContain('--no-replay');

      // Replay feeds the store with nobody posting: the long poll is answered by it.
      const events = await fetch(`http://127.0.0.1:${jsonPort}/customerapi/events?lastEventId=0`, {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      });
      expect(events.status).toBe(200);
      const body = (await events.json()) as { data: { events: Array<{ date: string }> } };
      const today = new Date();
      const local = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
      expect(body.data.events[0]?.date).toBe(local);

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(await refused(jsonPort)).toBe(true);
      expect(await refused(legacyPort)).toBe(true);
    },
    90_000,
  );
});
