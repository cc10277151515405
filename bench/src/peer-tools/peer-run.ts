import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, httpRequest, sleep } from '../lib/http-client';
import type { PeerTools } from './peer-install';
import { spawnPeer, writeJsonServerDb, writeMockoonData, type PeerName } from './peer-servers';

export type RunningPeer = Awaited<ReturnType<typeof startPeer>>;

/** Resolves once GET /health answers 200; the time it took is the start-up figure. */
export async function waitForHealth(port: number, alive: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (!alive()) throw new Error('exited before answering');
    try {
      const res = await httpRequest({ port, path: '/health', timeoutMs: 1000 });
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(3);
  }
  throw new Error(`no /health answer within ${timeoutMs} ms`);
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Writes each peer's data file for the canned body. */
export function peerDataFiles(dir: string, body: string): Record<PeerName, string> {
  return {
    'Mockoon CLI': writeMockoonData(path.join(dir, 'mockoon'), body),
    'json-server': writeJsonServerDb(path.join(dir, 'json-server'), body),
  };
}

export async function startPeer(peers: PeerTools, name: PeerName, dataFile: string) {
  const port = await freePort();
  const child = spawnPeer(peers, name, dataFile, port);
  try {
    await waitForHealth(port, () => child.exitCode === null, 60_000);
  } catch (err) {
    await stopProcess(child);
    throw new Error(`${name}: ${(err as Error).message}`);
  }
  return { name, port, stop: () => stopProcess(child) };
}
