import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const bin = path.join(root, 'packages', 'cli', 'bin', 'racedata-sim.js');
const built = existsSync(path.join(root, 'packages', 'cli', 'dist', 'main.js'));

function startProcess(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function output(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) resolve(match);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing ${pattern}: ${text}`)));
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

// The built binary is what users and the images run; `npm test` builds before jest.
(built ? describe : describe.skip)('the racedata-sim binary', () => {
  test('SIGTERM ends the process cleanly with exit code 0', async () => {
    const child = startProcess(['json', '--port', '0', '--host', '127.0.0.1']);
    const [, port] = await output(child, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const held = fetch(`http://127.0.0.1:${port}/customerapi/events?lastEventId=0`, {
      headers: { authorization: 'Bearer dGVzdHVzZXI=' },
    });
    await fetch(`http://127.0.0.1:${port}/health`);
    const exited = exitCode(child);
    child.kill('SIGTERM');
    expect((await held).status).toBe(204);
    expect(await exited).toBe(0);
  });

  test('a bad environment value exits 2 with one line on stderr', async () => {
    const child = startProcess(['legacy'], { PORT: 'abc' });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitCode(child)).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^racedata-sim: PORT \(--port\): /)]);
  });
});
