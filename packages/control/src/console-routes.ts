import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { coreError, type RecordedMessage, type ReplayHandle, type SimulatorSettings } from '@racedata/core';
import { ChannelSamples } from './channel-samples';
import { checkConsoleToken, rememberConsoleToken } from './console-auth';
import { serveConsole, type ConsoleAssets } from './console-assets';
import { consoleState } from './console-state';
import { ConsoleStream } from './console-stream';
import { DOCS_PATH, DocsSite } from './docs-site';
import { answerFailure, checkToken, readJson, sendJson, type ControlPlaneOptions } from './control-plane';
import { parseReplayCommand } from './replay-params';
import type { UserInfo } from './wire';
import { requestUrl } from './request-url';

export interface ConsoleOptions extends ControlPlaneOptions {
  readonly settings: ControlPlaneOptions['settings'] &
    Pick<SimulatorSettings, 'consoleStreamsMax' | 'consoleStreamMaxBufferedBytes'>;
  readonly replay: ReplayHandle;
  /** The recordings the simulator was given: the catalog's samples come from them. */
  readonly recordings: readonly RecordedMessage[];
  /** Fills `recordings` when first needed, when they were left out of the start. */
  readonly loadRecordings?: (() => Promise<unknown>) | undefined;
  /** The built console; without it /_sim/ui answers 404 and says why. */
  readonly consoleAssets?: ConsoleAssets | undefined;
  /** The folder holding README.md, CHANGELOG.md and docs/, served at /_sim/docs/; without it 404. */
  readonly docsRoot?: string | undefined;
}

/** The console's server side, closed with the simulator. */
export interface ConsoleHandler {
  readonly handle: RequestListener;
  readonly stream: ConsoleStream;
}

const MESSAGE_PATH = '/_sim/messages/';
const CONSOLE_PATHS = new Set(['/', '/_sim/stream', '/_sim/catalog', '/_sim/users', '/_sim/replay']);

export function isConsolePath(path: string): boolean {
  return (
    CONSOLE_PATHS.has(path) ||
    path.startsWith('/_sim/ui') ||
    path.startsWith(MESSAGE_PATH) ||
    isDocsPath(path)
  );
}

/**
 * A path of letters, digits, `-`, `_` and `/` under a first segment that starts with a letter:
 * the URL parser leaves it as it is (nothing to resolve or decode), and no console path looks so
 * (each is `/` or starts with `/_sim`). Every request passes here, most of them a client's API
 * call, and parsing each target as a URL cost more than the rest of this check (fan-out profile).
 */
const PLAIN_OTHER_PATH = /^\/[A-Za-z][A-Za-z0-9/_-]*(?:[?#]|$)/;

export function plainOtherPath(target: string | undefined): boolean {
  return target !== undefined && PLAIN_OTHER_PATH.test(target);
}

function isDocsPath(path: string): boolean {
  return path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`);
}

/**
 * The QA console's routes in front of the control plane: the page (/_sim/ui, and GET / sends a
 * browser there), the docs pages it links (/_sim/docs/), the live stream, message payloads, the catalog with samples, the users with
 * their tokens, and replay control. Everything else goes on to `inner` (the control plane).
 * With CONTROL_API=off none of this exists and `/` keeps answering as before.
 */
export function withConsole(inner: RequestListener, options: ConsoleOptions): ConsoleHandler {
  const { journal, clock, users, kind, settings, replay, certification } = options;
  const samples = new ChannelSamples(options.catalog, options.recordings);
  const docs = new DocsSite(options.docsRoot, kind);
  const recordingsLoaded = async (): Promise<void> => {
    await options.loadRecordings?.();
  };
  const stream = new ConsoleStream({
    journal,
    clock,
    logger: options.logger,
    state: consoleState(options, replay),
    stateChanges: certification && ((listener) => certification.onChange(listener)),
    maxClients: settings.consoleStreamsMax,
    maxBufferedBytes: settings.consoleStreamMaxBufferedBytes,
  });

  const route = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const path = url.pathname;
    const method = req.method ?? '';
    if (path === '/' && (method === 'GET' || method === 'HEAD')) {
      // Relative, so it also leads to a sandbox's own console under /sandboxes/{id}/.
      res.writeHead(302, { location: './_sim/ui', 'content-length': 0 });
      res.end();
      return true;
    }
    if (method === 'GET' && (path.startsWith('/_sim/ui') || path === '/_sim/stream')) {
      checkConsoleToken(req, url, settings.controlToken);
      if (path === '/_sim/stream') {
        stream.handle(req, res, url);
        return true;
      }
      if (!options.consoleAssets) {
        throw coreError('NOT_FOUND', 'the console is not built into this simulator (npm run build)');
      }
      rememberConsoleToken(res, url, settings.controlToken);
      return serveConsole(res, path, kind, options.consoleAssets);
    }
    if (isDocsPath(path)) {
      if (method !== 'GET' && method !== 'HEAD') return false;
      // The console's cookie reaches the pages it links, so they take its token as the page does.
      checkConsoleToken(req, url, settings.controlToken);
      rememberConsoleToken(res, url, settings.controlToken);
      await docs.serve(req, res, path);
      return true;
    }
    if (method === 'GET' && path.startsWith(MESSAGE_PATH)) {
      checkToken(req, settings.controlToken);
      const text = path.slice(MESSAGE_PATH.length);
      const seq = /^[1-9]\d{0,15}$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(seq))
        throw coreError('VALIDATION_FAILED', 'message seq must be a positive integer');
      const entry = journal.get(seq);
      const payload = journal.payloads.get(seq);
      if (!entry || entry.kind !== 'received' || payload === undefined) {
        throw coreError(
          'NOT_FOUND',
          `no payload kept for seq ${seq}; only the latest received messages are kept`,
        );
      }
      sendJson(res, 200, { entry, payload });
      return true;
    }
    switch (`${method} ${path}`) {
      case 'GET /_sim/catalog':
        checkToken(req, settings.controlToken);
        await recordingsLoaded();
        sendJson(res, 200, { simulator: kind, channels: samples.catalogFor(clock.now()) });
        return true;
      case 'GET /_sim/users':
        checkToken(req, settings.controlToken);
        sendJson(res, 200, {
          users: users.users.map((u): UserInfo => ({
            key: u.key,
            name: u.name,
            // A test authenticating as the user (POST .../authenticate) needs the secret too.
            secret: u.secret,
            token: u.token,
            channels: [...u.channels],
          })),
        });
        return true;
      case 'GET /_sim/replay':
        checkToken(req, settings.controlToken);
        await recordingsLoaded();
        sendJson(res, 200, replay.view());
        return true;
      case 'POST /_sim/replay': {
        checkToken(req, settings.controlToken);
        const command = parseReplayCommand(await readJson(req, settings.maxBodyBytes));
        await recordingsLoaded();
        sendJson(res, 200, replay.command(command));
        return true;
      }
      default:
        return false;
    }
  };

  const handle: RequestListener = (req, res) => {
    if (plainOtherPath(req.url)) {
      inner(req, res);
      return;
    }
    const url = requestUrl(req);
    if (!isConsolePath(url.pathname)) {
      inner(req, res);
      return;
    }
    route(req, res, url).then(
      (handled) => {
        if (!handled) inner(req, res);
      },
      (err: unknown) => answerFailure(req, res, err, options.logger, 'console'),
    );
  };
  return { handle, stream };
}
