import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  type ChannelCatalog,
  coreError,
  journalTransports,
  jsonDepthExceeds,
  type Logger,
  MAX_JSON_DEPTH,
  type SimulatorDescription,
  type SimulatorDocs,
  type SimulatorKind,
  type RaceDaySettings,
  type SimulatorSettings,
  type TokenService,
  toSimError,
  transportInfo,
  type UserTable,
} from '@racedata/core';
import { controlPlaneError } from './errors';
import {
  parseCloseRequest,
  parseExpireRequest,
  parseFaultRule,
  type FaultValidationContext,
} from './fault-params';
import { clientHungUp, decodeSegment, invalid } from './body-checks';
import { checkFaultLimits, type FaultLimits } from './fault-limits';
import { unknownFault, type Faults } from './faults';
import { parseSandboxRequest } from './sandbox-params';
import type { Sandboxes } from './sandboxes';
import {
  parseAdvanceRequest,
  parseJournalQuery,
  parseJournalWaitQuery,
  parseResetRequest,
} from './control-params';
import { certificationSummary, type CertificationSource } from './certification-source';
import type { Journal } from './journal';
import type { OffsetClock } from './offset-clock';
import type { ControlHooks } from './simulator-types';
import type { ControlState } from './wire';
import { requestUrl } from './request-url';
import { raceDayRoutes, raceDaySummary, type SimulatorRaceDay } from './race-day-routes';

export const CONTROL_PREFIX = '/_sim/';

export interface ControlPlaneOptions {
  kind: SimulatorKind;
  /** The simulator's transports: what fault rules, journal filters and GET /_sim/state name. */
  description: Pick<SimulatorDescription, 'transports'>;
  settings: Pick<SimulatorSettings, 'controlApi' | 'controlToken' | 'maxBodyBytes' | 'sandboxMax'> &
    FaultLimits &
    RaceDaySettings;
  clock: OffsetClock;
  journal: Journal;
  /** Served at GET /_sim/openapi.json and GET /_sim/asyncapi.json. */
  docs: SimulatorDocs;
  faults: Faults;
  users: UserTable;
  catalog: ChannelCatalog;
  tokens: TokenService;
  hooks: ControlHooks;
  logger: Logger;
  /** Absent inside a sandbox and with SANDBOX_MAX=0. */
  sandboxes?: Sandboxes | undefined;
  /** Only on a simulator racedata-sim certify runs. */
  certification?: CertificationSource | undefined;
  /** The race day this simulator plays (GET/POST/DELETE /_sim/race-day). */
  raceDay?: SimulatorRaceDay | undefined;
}

/**
 * Puts the /_sim/* routes in front of a simulator's request listener. With CONTROL_API=off the
 * paths fall through to the simulator, which answers them 404 as any unknown path.
 */
export function withControlPlane(inner: RequestListener, options: ControlPlaneOptions): RequestListener {
  if (options.settings.controlApi === 'off') return inner;
  const routes = controlRoutes(options);
  return (req, res) => {
    if (!(req.url ?? '').startsWith(CONTROL_PREFIX)) {
      inner(req, res);
      return;
    }
    routes(req, res).catch((err: unknown) => answerFailure(req, res, err, options.logger, 'control-plane'));
  };
}

/**
 * Answers a /_sim/* route that threw: nothing when the client already left, its own error body
 * for a SimError, and a 500 (logged, saying nothing to the client) for anything else.
 */
export function answerFailure(
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
  logger: Logger,
  where: 'control-plane' | 'console',
): void {
  if (clientHungUp(req, err)) {
    res.destroy();
    return;
  }
  const error = toSimError(
    err,
    () => undefined,
    () => logger.error({ err, path: req.url }, `unexpected ${where} error`),
  );
  sendJson(res, error.status, { status: 'fail', code: error.code, message: error.message });
}

function controlRoutes(options: ControlPlaneOptions) {
  const { clock, journal, faults, users, tokens, hooks, settings, kind, description } = options;
  const ctx: FaultValidationContext = {
    kind,
    description,
    routes: faults.routes,
    users,
    catalog: options.catalog,
  };
  const journalled = journalTransports(description);
  const transports = transportInfo(description);
  const body = (req: IncomingMessage) => readJson(req, settings.maxBodyBytes);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    checkToken(req, settings.controlToken);
    const url = requestUrl(req);
    const route = `${req.method ?? ''} ${url.pathname}`;
    if (route.startsWith('DELETE /_sim/sandboxes/')) {
      const id = decodeSegment(url.pathname.slice('/_sim/sandboxes/'.length), 'the sandbox id');
      if (!(await sandboxesOf(options).delete(id)))
        throw coreError('NOT_FOUND', `no sandbox "${id.slice(0, 40)}"`);
      return sendJson(res, 200, { deleted: id });
    }
    if (route.startsWith('DELETE /_sim/faults/')) {
      const id = decodeSegment(url.pathname.slice('/_sim/faults/'.length), 'the fault id');
      if (!faults.remove(id)) throw unknownFault(id);
      return sendJson(res, 200, { removed: 1 });
    }
    const raceDay = options.raceDay && { raceDay: options.raceDay, settings, clock };
    if (await raceDayRoutes(route, url.pathname, req, res, () => body(req), sendJson, raceDay)) return;
    switch (route) {
      case 'GET /_sim/openapi.json':
        return sendJson(res, 200, options.docs.openapi);
      case 'GET /_sim/asyncapi.json':
        return sendJson(res, 200, options.docs.asyncapi);
      case 'GET /_sim/state': {
        const certification = options.certification?.current();
        const state: ControlState = {
          simulator: kind,
          time: new Date(clock.now()).toISOString(),
          clockOffsetMs: clock.offsetMs,
          ...hooks.state(),
          journal: {
            entries: journal.size,
            max: journal.capacity,
            lastSeq: journal.lastSeq,
            waiters: journal.waiterCount,
          },
          transports,
          raceDay: raceDaySummary(options.raceDay),
          ...(certification && { certification: certificationSummary(certification) }),
        };
        return sendJson(res, 200, state);
      }
      case 'GET /_sim/certification': {
        const certification = options.certification?.current();
        if (!certification) {
          throw coreError('NOT_FOUND', 'no certification runs on this simulator (racedata-sim certify)');
        }
        return sendJson(res, 200, certification);
      }
      case 'POST /_sim/reset': {
        const request = parseResetRequest(await body(req));
        const clockOffsetMs = request.clock ? clock.restore() : 0;
        const journalEntries = request.journal ? journal.clear() : 0;
        const faultRules = request.faults ? faults.clear() : 0;
        const tokenExpiries = request.faults ? tokens.clearExpiries() : 0;
        const own = { journalEntries, faultRules, tokenExpiries, clockOffsetMs };
        const cleared = { ...(await hooks.reset(request)), ...own };
        return sendJson(res, 200, { cleared, eventIds: request.eventIds });
      }
      case 'GET /_sim/journal': {
        const query = parseJournalQuery(url.searchParams, journal.capacity, journalled);
        checkUser(query.filter.user, users);
        return sendJson(res, 200, journal.list(query.filter, query.limit));
      }
      case 'GET /_sim/journal/wait':
        return waitRoute(req, res, url, journal, users, journalled);
      case 'POST /_sim/faults': {
        const input = parseFaultRule(await body(req), ctx);
        checkFaultLimits(input, faults.size, settings);
        return sendJson(res, 201, faults.add(input));
      }
      case 'GET /_sim/faults':
        return sendJson(res, 200, { rules: faults.list() });
      case 'DELETE /_sim/faults':
        return sendJson(res, 200, { removed: faults.clear() });
      case 'POST /_sim/connections/close': {
        const request = parseCloseRequest(await body(req), ctx);
        return sendJson(res, 200, { closed: faults.closeSessions(request, request.code) });
      }
      case 'POST /_sim/tokens/expire': {
        const request = parseExpireRequest(await body(req), ctx);
        const expired =
          request.user === undefined ? users.users : users.users.filter((u) => u.key === request.user);
        tokens.expire(expired);
        return sendJson(res, 200, { expired: expired.map((u) => u.key) });
      }
      case 'POST /_sim/sandboxes': {
        const sandboxes = sandboxesOf(options);
        return sendJson(res, 201, sandboxes.create(parseSandboxRequest(await body(req))));
      }
      case 'GET /_sim/sandboxes': {
        const sandboxes = sandboxesOf(options);
        return sendJson(res, 200, { max: sandboxes.max, sandboxes: sandboxes.list() });
      }
      case 'POST /_sim/events':
        if (!hooks.seedEvents)
          throw coreError('NOT_FOUND', 'POST /_sim/events seeds the JSON simulator only');
        return sendJson(res, 201, await hooks.seedEvents(req));
      case 'POST /_sim/clock/advance': {
        const ms = parseAdvanceRequest(await body(req));
        const timersFired = clock.advance(ms);
        return sendJson(res, 200, {
          advancedMs: ms,
          clockOffsetMs: clock.offsetMs,
          time: new Date(clock.now()).toISOString(),
          timersFired,
        });
      }
      default:
        throw coreError('NOT_FOUND', `no control route for ${route.slice(0, 80)}`);
    }
  };
}

function waitRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  journal: Journal,
  users: UserTable,
  journalled: readonly string[],
): void {
  const query = parseJournalWaitQuery(url.searchParams, journal.capacity, journalled);
  checkUser(query.filter.user, users);
  // Answered synchronously when the entries exist already: declared before the wait starts.
  const wait: { cancel?: () => void } = {};
  const onClose = () => wait.cancel?.();
  wait.cancel = journal.wait(query.filter, query.count, query.timeoutMs, (page, complete) => {
    res.off('close', onClose);
    if (!res.destroyed) sendJson(res, complete ? 200 : 408, page);
  });
  if (!res.writableEnded) res.once('close', onClose);
}

function sandboxesOf(options: ControlPlaneOptions): Sandboxes {
  if (options.sandboxes) return options.sandboxes;
  throw coreError(
    'NOT_FOUND',
    options.settings.sandboxMax === 0
      ? 'sandboxes are off (SANDBOX_MAX=0), or this is a sandbox: sandboxes do not nest'
      : 'sandboxes are not available here',
  );
}

/** A filter naming a user this simulator does not have could never match: say so. */
function checkUser(user: string | undefined, users: UserTable): void {
  if (user !== undefined && !users.byKey(user)) {
    throw coreError(
      'VALIDATION_FAILED',
      `unknown user "${user.slice(0, 40)}"; known: ${users.users.map((u) => u.key).join(', ')}`,
    );
  }
}

/** Throws CONTROL_UNAUTHORIZED unless the request carries `Authorization: Bearer <token>`. */
export function checkToken(req: IncomingMessage, token: string | undefined): void {
  if (token === undefined) return;
  const header = req.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '', 'utf8');
  const wanted = Buffer.from(token, 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw controlPlaneError(
      'CONTROL_UNAUTHORIZED',
      'the control plane needs Authorization: Bearer <CONTROL_TOKEN>',
    );
  }
}

/** The request body as JSON; undefined when there is none. */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw coreError('PAYLOAD_TOO_LARGE', `request body exceeds ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  // A fault rule keeps its body and the console stream serialises it every second: a body nested
  // thousands of levels deep would be stored, then overflow the stack each time it is written.
  if (jsonDepthExceeds(bytes, MAX_JSON_DEPTH)) {
    throw invalid(
      `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep (the limit)`,
    );
  }
  const text = bytes.toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw coreError('MALFORMED_JSON', 'request body is not valid JSON', { cause: err });
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': `${contentType}; charset=utf-8`,
    'content-length': Buffer.byteLength(text, 'utf8'),
    'cache-control': 'no-store',
  });
  res.end(text);
}
