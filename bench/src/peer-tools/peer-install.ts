import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The peer mock servers, installed (pinned) into bench/peers for the benchmark only. */
export interface PeerTools {
  readonly jsonServerBin: string;
  readonly mockoonBin: string;
  readonly versions: Readonly<Record<string, string>>;
}

function version(peersDir: string, name: string): string {
  const file = path.join(peersDir, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function located(peersDir: string): PeerTools | undefined {
  const jsonServerBin = path.join(peersDir, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
  const mockoonBin = path.join(peersDir, 'node_modules', '@mockoon', 'cli', 'bin', 'run.js');
  if (!existsSync(jsonServerBin) || !existsSync(mockoonBin)) return undefined;
  return {
    jsonServerBin,
    mockoonBin,
    versions: {
      'json-server': version(peersDir, 'json-server'),
      '@mockoon/cli': version(peersDir, '@mockoon/cli'),
    },
  };
}

/**
 * Finds the peers; installs them from bench/peers/package-lock.json first when asked and they
 * are missing. Returns why not when they cannot be used.
 */
export function ensurePeers(root: string, install: boolean): { peers?: PeerTools; note: string } {
  const peersDir = path.join(root, 'bench', 'peers');
  let peers = located(peersDir);
  if (!peers && install) {
    const lock = existsSync(path.join(peersDir, 'package-lock.json'));
    const args = [lock ? 'ci' : 'install', '--prefix', peersDir, '--no-audit', '--no-fund'];
    console.log(`installing peer tools: npm ${args.join(' ')}`);
    const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit', timeout: 600_000 });
    if (result.status !== 0) return { note: `peer install failed (npm exit ${result.status})` };
    peers = located(peersDir);
  }
  if (!peers) {
    return {
      note: install
        ? 'peer tools not found after install'
        : 'peer tools not installed (bench/peers/node_modules missing; quick mode does not install them): peers skipped',
    };
  }
  const list = Object.entries(peers.versions)
    .map(([name, v]) => `${name} ${v}`)
    .join(', ');
  return { peers, note: list };
}
