import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, waitForHealth } from './http';
import { stopChild, trackProcess } from './processes';

/** The peer mock servers, installed (pinned) into bench/peers for the benchmark only. */
export type PeerTools = { readonly bins: Readonly<Record<PeerName, string>>; readonly versions: string };

export type PeerName = 'Mockoon CLI' | 'json-server';
export const PEER_NAMES: readonly PeerName[] = ['Mockoon CLI', 'json-server'];

/** The canned page path each peer serves (json-server can only serve a top-level key). */
export const PEER_PAGE_PATH: Record<PeerName, string> = {
  'Mockoon CLI': '/customerapi/events',
  'json-server': '/page',
};

const PACKAGES: Record<PeerName, [pkg: string, bin: string]> = {
  'Mockoon CLI': ['@mockoon/cli', 'bin/run.js'],
  'json-server': ['json-server', 'lib/cli/bin.js'],
};

function located(peersDir: string): PeerTools | undefined {
  const modules = path.join(peersDir, 'node_modules');
  const bins = Object.fromEntries(PEER_NAMES.map((n) => [n, path.join(modules, ...PACKAGES[n])]));
  if (!Object.values(bins).every((bin) => existsSync(bin))) return undefined;
  const version = (pkg: string) =>
    (JSON.parse(readFileSync(path.join(modules, pkg, 'package.json'), 'utf8')) as { version: string })
      .version;
  const versions = PEER_NAMES.map((n) => `${PACKAGES[n][0]} ${version(PACKAGES[n][0])}`).join(', ');
  return { bins: bins as Record<PeerName, string>, versions };
}

/**
 * Finds the peers; installs them from bench/peers/package-lock.json first when asked and they
 * are missing. Says why not when they cannot be used.
 */
export function ensurePeers(root: string, install: boolean): { peers?: PeerTools; note: string } {
  const peersDir = path.join(root, 'bench', 'peers');
  let peers = located(peersDir);
  if (!peers && install) {
    const args = ['ci', '--prefix', peersDir, '--no-audit', '--no-fund'];
    console.log(`installing peer tools: npm ${args.join(' ')}`);
    const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit', timeout: 600_000 });
    if (result.status !== 0) return { note: `peer install failed (npm exit ${result.status})` };
    peers = located(peersDir);
  }
  if (peers) return { peers, note: peers.versions };
  const missing =
    'not installed (bench/peers/node_modules missing; quick mode does not install them): peers skipped';
  return { note: `peer tools ${install ? 'not found after install' : missing}` };
}

/**
 * Each peer's data file serving `body` (Mockoon at /customerapi/events, json-server at /page) and
 * /health. Mockoon's environment holds only what differs from its defaults: canned responses with
 * no templating pass.
 */
export function peerDataFiles(dir: string, body: string): Record<PeerName, string> {
  mkdirSync(dir, { recursive: true });
  const uuid = (k: number) => `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;
  const headers = [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }];
  const route = (n: number, endpoint: string, text: string) => ({
    ...{ uuid: uuid(n), method: 'get', endpoint },
    responses: [
      { uuid: uuid(n + 100), body: text, statusCode: 200, headers, disableTemplating: true, default: true },
    ],
  });
  const routes = [route(1, 'customerapi/events', body), route(2, 'health', '{"status":"ok"}')];
  const environment = {
    ...{ uuid: uuid(999), lastMigration: 33, name: 'racedata bench', hostname: '127.0.0.1', routes },
    rootChildren: routes.map((r) => ({ type: 'route', uuid: r.uuid })),
  };
  const files = {
    'Mockoon CLI': path.join(dir, 'mockoon-env.json'),
    'json-server': path.join(dir, 'db.json'),
  };
  writeFileSync(files['Mockoon CLI'], JSON.stringify(environment));
  writeFileSync(files['json-server'], `{"page":${body},"health":{"status":"ok"}}`);
  return files;
}

/** Starts a peer as its CLI would be run by a user, on `port`, output discarded. */
export function spawnPeer(peers: PeerTools, name: PeerName, dataFile: string, port: number) {
  const host = '127.0.0.1';
  const args =
    name === 'json-server'
      ? [dataFile, '--port', String(port), '--host', host, '--quiet']
      : ['start', '--data', dataFile, '--port', String(port), '--hostname', host, '-X'];
  const env = { ...process.env, NODE_ENV: 'production' };
  return trackProcess(spawn(process.execPath, [peers.bins[name], ...args], { stdio: 'ignore', env }));
}

/** `start(port)` on a free port, once its /health answers: how long that took, and how to stop it. */
export async function startOnFreePort<N extends string>(name: N, start: (port: number) => ChildProcess) {
  const port = await freePort();
  const started = performance.now();
  const child = start(port);
  const stop = () => stopChild(child);
  try {
    await waitForHealth(port, () => child.exitCode === null);
  } catch (err) {
    await stop();
    throw new Error(`${name}: ${(err as Error).message}`);
  }
  return { name, port, pid: child.pid as number, ms: performance.now() - started, stop };
}

/** A peer on a free port, once its /health answers. */
export const startPeer = (peers: PeerTools, name: PeerName, dataFile: string) =>
  startOnFreePort(name, (port) => spawnPeer(peers, name, dataFile, port));
