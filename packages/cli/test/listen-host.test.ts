/**
 * Issue 30, "the simulators listen on every interface by default": `racedata-sim json|legacy|all`
 * (and so `npm start`) listen on 127.0.0.1 unless told otherwise, so nobody on the same network
 * can drive a developer's control plane; the banner says where it listens and how to open it up.
 * The images open it inside the container (docker/*.Dockerfile set HOST=0.0.0.0; the image test
 * in scripts/test-images.sh checks the built image and its banner).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { closeAfterTest, closeAll } from '@racedata/test-support';
import { CLI_BIN } from '@racedata/test-support/sim-process';

afterEach(() => closeAll());

/** This machine's own address on its network, when it has one (a reader there would use it). */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

/** Starts the command with `args` (no --host unless given) and resolves with its banner and ports. */
async function started(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ banner: string; ports: number[] }> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', HOST: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  closeAfterTest({
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  });
  const wanted = args[0] === 'all' ? 2 : 1;
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 20 s: ${text}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const ports = [...text.matchAll(/listening on http:\/\/[^:]+:(\d+) \(bound to/g)].map((m) =>
        Number(m[1]),
      );
      if (ports.length < wanted) return;
      clearTimeout(timer);
      resolve({ banner: text, ports });
    });
    void exited.then(() => reject(new Error(`exited before its banner: ${text}`)));
  });
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test.each([
  ['json', ['json', '--port', '0']],
  ['legacy', ['legacy', '--port', '0']],
  ['all', ['all', '--json-port', '0', '--legacy-port', '0']],
])('racedata-sim %s listens on 127.0.0.1 by default and says how to open it up', async (_kind, args) => {
  const { banner, ports } = await started(args);
  expect(banner.match(/\(bound to 127\.0\.0\.1\)/g)).toHaveLength(ports.length);
  expect(banner).toContain('reachable from this machine only; --host 0.0.0.0 (HOST=0.0.0.0) opens it');
  for (const port of ports) {
    expect(await connects('127.0.0.1', port)).toBe(true);
    if (lanAddress !== undefined) expect(await connects(lanAddress, port)).toBe(false);
  }
});

test('--host 0.0.0.0 (or HOST=0.0.0.0, as the images set it) opens it to the network and the banner says so', async () => {
  for (const run of [
    started(['json', '--port', '0', '--host', '0.0.0.0']),
    started(['json', '--port', '0'], { HOST: '0.0.0.0' }),
  ]) {
    const { banner, ports } = await run;
    expect(banner).toContain('(bound to 0.0.0.0)');
    expect(banner).toContain('reachable on every interface: anyone who reaches this port can use it');
    if (lanAddress !== undefined) expect(await connects(lanAddress, ports[0] as number)).toBe(true);
  }
});

test('the images listen on every interface inside the container: their Dockerfiles set HOST=0.0.0.0', () => {
  for (const name of ['json.Dockerfile', 'legacy.Dockerfile']) {
    const dockerfile = readFileSync(path.resolve(__dirname, '..', '..', '..', 'docker', name), 'utf8');
    // The runtime stage is the last FROM; its ENV is what a container starts with.
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect({ name, host: /^ENV [^\n]*(?:\\\n[^\n]*)*HOST=0\.0\.0\.0/m.test(runtime) }).toEqual({
      name,
      host: true,
    });
  }
});
