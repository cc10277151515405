import type { IncomingMessage, RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestUrl } from '@racedata/control';
import type { TrafficEvent } from '../types';
import { captureBody, readEventsPage } from './answer-capture';
import type { ClientAttribution } from './client-attribution';
import { nameCredential, safeQuery, type KnownUsers } from './credential-names';

/** The header certify's own calls carry (with a per-run value) so they are not the client's traffic. */
export const OWN_CALL_HEADER = 'x-racedata-certify';

const JSON_EVENTS_PATH = '/customerapi/events';
const LISTEN_PATH = '/customerapi/channels/listen';

export interface RecorderDeps {
  readonly users: KnownUsers;
  /** The value of OWN_CALL_HEADER on certify's own requests. */
  readonly ownCallToken: string;
  readonly record: (event: TrafficEvent) => void;
  /** Whose each request and upgrade is; what is not the client's goes to `foreign`. */
  readonly attribution: ClientAttribution;
  readonly foreign: (event: TrafficEvent) => void;
  readonly now: () => number;
}

type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Stands in front of the mounted simulator and writes down every request and upgrade the client
 * makes: times, route, query, auth scheme and status, and for long-poll pages what they carried.
 * What another process sends (--attach: client-attribution.ts) goes to `foreign` instead, so no
 * check ever reads it. The simulator itself is unchanged: this only watches what passes.
 */
export function recordRequests(inner: RequestListener, deps: RecorderDeps): RequestListener {
  return (req, res) => {
    const url = requestUrl(req);
    const path = url.pathname;
    // The console (/_sim/*, and the root a browser is sent on from) is a person watching, not the client.
    if (path.startsWith('/_sim/') || isConsoleEntry(req, path) || isOwnCall(req, deps)) {
      inner(req, res);
      return;
    }
    const at = deps.now();
    const method = req.method ?? '';
    const { auth, user } = nameCredential(req, deps.users);
    const route = path.toLowerCase().replace(/\/$/, '');
    const longPoll = method === 'GET' && (route === JSON_EVENTS_PATH || route === LISTEN_PATH);
    const body = longPoll ? captureBody(res) : undefined;
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 'aborted';
      const answered =
        status === 200 && body
          ? route === LISTEN_PATH
            ? { messages: 1, eventIds: [] }
            : readEventsPage(body())
          : undefined;
      const mine = deps.attribution.request(req, res, route);
      (mine ? deps.record : deps.foreign)({
        kind: 'request',
        at,
        endedAt: deps.now(),
        method,
        path,
        query: safeQuery(url.searchParams),
        auth,
        ...(user !== undefined && { user }),
        status,
        ...(answered !== undefined && { answered }),
      });
    });
    inner(req, res);
  };
}

export function recordUpgrades(inner: UpgradeListener, deps: RecorderDeps): UpgradeListener {
  return (req, socket, head) => {
    if (!isOwnCall(req, deps)) {
      const { auth, user } = nameCredential(req, deps.users);
      const path = requestUrl(req).pathname;
      const mine = deps.attribution.upgrade(req);
      (mine ? deps.record : deps.foreign)({
        kind: 'upgrade',
        at: deps.now(),
        path,
        auth,
        ...(user !== undefined && { user }),
      });
    }
    inner(req, socket, head);
  };
}

function isConsoleEntry(req: IncomingMessage, path: string): boolean {
  return path === '/' && (req.method === 'GET' || req.method === 'HEAD');
}

function isOwnCall(req: IncomingMessage, deps: RecorderDeps): boolean {
  return req.headers[OWN_CALL_HEADER] === deps.ownCallToken;
}
