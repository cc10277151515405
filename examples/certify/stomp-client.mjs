// A legacy STOMP consumer (RACEDATA_STOMP_URL, RACEDATA_STOMP_DESTINATION), written the way
// certify's `stomp` suite asks: `racedata-sim certify stomp --echo stdout -- node examples/certify/stomp-client.mjs`.
// It prints the payloadKey of every MESSAGE on stdout and everything else on stderr.
import { pathToFileURL } from 'node:url';
import { Client, ReconnectionTimeMode } from '@stomp/stompjs';
import WebSocket from 'ws';
import { authenticate, certifyEnv } from './authenticate.mjs';

/**
 * `mistakes` exist only so certify's own tests can run broken variants of this client
 * (examples/certify/broken/); a real client has none.
 */
export function runStompClient(mistakes = {}) {
  const env = certifyEnv([
    'RACEDATA_URL',
    'RACEDATA_KEY',
    'RACEDATA_SECRET',
    'RACEDATA_STOMP_URL',
    'RACEDATA_STOMP_DESTINATION',
  ]);
  let token;
  let connections = 0;
  const client = new Client({
    // The token goes on the upgrade request; the CONNECT frame carries none.
    webSocketFactory: () => {
      const socket = new WebSocket(env.RACEDATA_STOMP_URL, ['v12.stomp'], {
        headers: { authorization: `Bearer ${token}` },
      });
      if (mistakes.ignoreMissingHeartBeats) return askingForUnwatchedHeartBeats(socket);
      return mistakes.silentHeartBeats ? withoutHeartBeats(socket) : socket;
    },
    // A fresh token before every attempt: the last one may be why the session was closed.
    beforeConnect: async () => {
      try {
        token = await authenticate(env.RACEDATA_URL, env.RACEDATA_KEY, env.RACEDATA_SECRET);
      } catch (err) {
        process.stderr.write(`authentication failed: ${err.message}\n`);
      }
    },
    // 500 ms, then 1 s, then every 2 s while refused (at most 2 attempts a second, and back soon
    // after a server that restarted returns); back to 500 ms once in.
    reconnectDelay: mistakes.neverReconnect ? 0 : 500,
    reconnectTimeMode: ReconnectionTimeMode.EXPONENTIAL,
    maxReconnectDelay: 2000,
    // Offering to beat every second: the negotiated interval is the larger of this and what the
    // server wants, so this suits any server (STOMP 1.2 "Heart-beating"). The server's beats are
    // asked for every 2 s: the session is dropped after two missed ones (4 s of silence), late
    // enough for a busy machine, early enough to notice a connection gone silent.
    heartbeatOutgoing: mistakes.silentHeartBeats ? 2000 : 1000,
    heartbeatIncoming: mistakes.ignoreMissingHeartBeats ? 0 : 2000,
    // A silent connection will not answer a close handshake either: drop it at once.
    discardWebsocketOnCommFailure: true,
    onConnect: () => {
      connections++;
      if (mistakes.subscribeOnce && connections > 1) return;
      client.subscribe(env.RACEDATA_STOMP_DESTINATION, (message) => {
        const { payloadKey } = JSON.parse(message.body);
        process.stdout.write(`${payloadKey}\n`);
      });
    },
    onStompError: (frame) => process.stderr.write(`STOMP ERROR: ${frame.headers.message}\n`),
    onWebSocketClose: (event) => process.stderr.write(`STOMP socket closed (${event.code})\n`),
  });
  process.once('SIGTERM', () => {
    void client.deactivate().then(() => process.exit(0));
  });
  client.activate();
}

/**
 * A broken variant only: @stomp/stompjs beats by writing a bare end-of-line to the socket, so
 * dropping those writes keeps the heart-beats offered in CONNECT but never sends one.
 */
function withoutHeartBeats(socket) {
  const send = socket.send.bind(socket);
  socket.send = (data, ...rest) => (data === '\n' ? undefined : send(data, ...rest));
  return socket;
}

/**
 * A broken variant only: asks the server for heart-beats in CONNECT while @stomp/stompjs,
 * configured to expect none, never checks that they come.
 */
function askingForUnwatchedHeartBeats(socket) {
  const send = socket.send.bind(socket);
  socket.send = (data, ...rest) =>
    send(
      typeof data === 'string' ? data.replace(/^heart-beat:(\d+),0$/m, 'heart-beat:$1,2000') : data,
      ...rest,
    );
  return socket;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) runStompClient();
