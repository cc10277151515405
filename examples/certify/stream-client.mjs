// A JSON event-stream consumer (/customerapi/event-stream), written the way certify's `stream`
// suite asks: `racedata-sim certify stream --echo stdout -- node examples/certify/stream-client.mjs`.
// It prints the id of every Data message on stdout and everything else on stderr.
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { authenticate, certifyEnv } from './authenticate.mjs';

/** Reconnect back-off: quick after a single close, at most 2 attempts a second while refused. */
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 2000;
/**
 * The server Pings every RACEDATA_PING_INTERVAL_MS (production: a minute, interface 6): with
 * nothing for two and a half of those, the connection is gone though the socket looks open
 * (a NAT or a proxy dropped it), so the client drops it and connects again.
 */
function watchdogMs() {
  const interval = Number(process.env.RACEDATA_PING_INTERVAL_MS ?? 60_000);
  return 2.5 * (Number.isFinite(interval) && interval > 0 ? interval : 60_000);
}

/**
 * `mistakes` exist only so certify's own tests can run broken variants of this client
 * (examples/certify/broken/); a real client has none.
 */
export function runStreamClient(mistakes = {}) {
  const env = certifyEnv(['RACEDATA_URL', 'RACEDATA_WS_URL', 'RACEDATA_KEY', 'RACEDATA_SECRET']);
  let token; // kept across reconnects until the server refuses it
  let retryMs = FIRST_RETRY_MS;
  let socket;
  let stopping = false;

  async function connect() {
    try {
      token ??= await authenticate(env.RACEDATA_URL, env.RACEDATA_KEY, env.RACEDATA_SECRET);
    } catch (err) {
      process.stderr.write(`authentication failed: ${err.message}\n`);
      return retry();
    }
    const current = new WebSocket(`${env.RACEDATA_WS_URL}/customerapi/event-stream`);
    socket = current;
    let watchdog;
    const heard = () => {
      clearTimeout(watchdog);
      if (mistakes.noWatchdog) return;
      watchdog = setTimeout(() => {
        process.stderr.write('event stream silent: no Ping for too long; reconnecting\n');
        current.terminate();
      }, watchdogMs());
    };
    current.on('open', heard);
    current.on('message', (raw) => {
      heard();
      let message;
      try {
        message = JSON.parse(raw.toString());
      } catch {
        process.stderr.write('event stream: a message that is not JSON; ignored\n');
        return;
      }
      switch (message.type) {
        case 'Connection': // the token is awaited as the first message, within the deadline (4.5)
          socket.send(token);
          break;
        case 'Authenticated':
          retryMs = FIRST_RETRY_MS;
          break;
        case 'AuthenticationError': // the token is stale: the next connection authenticates first
          token = undefined;
          break;
        case 'Ping': // the interface says: ignore it
          if (mistakes.dropOnPing) socket.close(1000, 'a Ping is not data');
          break;
        case 'Data':
          // Fields, channels and payloads it does not know are passed on as they are.
          process.stdout.write(`${message.id}\n`);
          break;
        default: // a message type of a later version of the interface: not for this client
          if (mistakes.throwOnUnknownType) throw new Error(`unknown message type ${message.type}`);
          process.stderr.write(`event stream: message type ${message.type} ignored\n`);
      }
    });
    // A refused upgrade (503), a reset and a server close all end here; `error` alone is noise.
    current.on('error', (err) => process.stderr.write(`event stream: ${err.message}\n`));
    current.on('close', (code) => {
      clearTimeout(watchdog);
      process.stderr.write(`event stream closed (${code})\n`);
      if (!stopping && !mistakes.neverReconnect) retry();
    });
  }

  function retry() {
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }

  process.once('SIGTERM', () => {
    stopping = true;
    socket?.close(1000, 'client stopping');
    process.exit(0);
  });
  void connect();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) runStreamClient();
