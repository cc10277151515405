import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { trackProcess } from '../lib/child-server';
import type { PeerTools } from './peer-install';

export type PeerName = 'Mockoon CLI' | 'json-server';
export const PEER_NAMES: readonly PeerName[] = ['Mockoon CLI', 'json-server'];

/** The canned page path each peer serves (json-server can only serve a top-level key). */
export const PEER_PAGE_PATH: Record<PeerName, string> = {
  'Mockoon CLI': '/customerapi/events',
  'json-server': '/page',
};

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function mockoonRoute(n: number, endpoint: string, body: string) {
  return {
    uuid: uuid(n),
    type: 'http',
    documentation: '',
    method: 'get',
    endpoint,
    responses: [
      {
        uuid: uuid(n + 100),
        body,
        latency: 0,
        statusCode: 200,
        label: '',
        headers: [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }],
        bodyType: 'INLINE',
        filePath: '',
        databucketID: '',
        sendFileAsBody: false,
        rules: [],
        rulesOperator: 'OR',
        // A canned response: no templating pass over the body.
        disableTemplating: true,
        fallbackTo404: false,
        default: true,
        crudKey: 'id',
        callbacks: [],
      },
    ],
    responseMode: null,
    streamingMode: null,
    streamingInterval: 0,
  };
}

/** A Mockoon environment file serving `body` at /customerapi/events and a /health route. */
export function writeMockoonData(dir: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const routes = [mockoonRoute(1, 'customerapi/events', body), mockoonRoute(2, 'health', '{"status":"ok"}')];
  const environment = {
    uuid: uuid(999),
    lastMigration: 33,
    name: 'racedata bench',
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    hostname: '127.0.0.1',
    folders: [],
    routes,
    rootChildren: routes.map((r) => ({ type: 'route', uuid: r.uuid })),
    proxyMode: false,
    proxyHost: '',
    proxyRemovePrefix: false,
    tlsOptions: {
      enabled: false,
      type: 'CERT',
      pfxPath: '',
      certPath: '',
      keyPath: '',
      caPath: '',
      passphrase: '',
    },
    cors: true,
    headers: [],
    proxyReqHeaders: [],
    proxyResHeaders: [],
    data: [],
    callbacks: [],
  };
  const file = path.join(dir, 'mockoon-environment.json');
  writeFileSync(file, JSON.stringify(environment));
  return file;
}

/** A json-server database whose `page` key is the canned page, plus `health`. */
export function writeJsonServerDb(dir: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'json-server-db.json');
  writeFileSync(file, `{"page":${body},"health":{"status":"ok"}}`);
  return file;
}

/** Starts a peer as its CLI would be run by a user, on the given port, output discarded. */
export function spawnPeer(peers: PeerTools, name: PeerName, dataFile: string, port: number): ChildProcess {
  const args =
    name === 'json-server'
      ? [peers.jsonServerBin, dataFile, '--port', String(port), '--host', '127.0.0.1', '--quiet']
      : [
          peers.mockoonBin,
          'start',
          '--data',
          dataFile,
          '--port',
          String(port),
          '--hostname',
          '127.0.0.1',
          '-X',
        ];
  return trackProcess(
    spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production' } }),
  );
}
