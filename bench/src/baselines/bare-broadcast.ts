import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { serveIpc } from '../lib/child-ipc';
import { readBody } from './read-body';

/**
 * Baseline for fan-out: a POST's bytes are sent to every connected WebSocket client, as a text
 * frame like the simulators' (the same frame header and bytes on the wire).
 */
const server = http.createServer((req, res) => {
  void readBody(req).then((body) => {
    if (req.method === 'POST') for (const ws of wss.clients) ws.send(body, { binary: false });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"recipients":${wss.clients.size}}`);
  });
});
const wss = new WebSocketServer({ server, perMessageDeflate: false });

server.listen(0, '127.0.0.1', () => {
  serveIpc((server.address() as AddressInfo).port, {
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      server.closeAllConnections();
    },
  });
});
