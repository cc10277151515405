import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { measuredMemory, serveIpc } from '../lib/child-ipc';
import { readBody } from './read-body';

/**
 * Baseline for delivery latency: bare Node http + ws, no logic. A POST's body goes to every
 * held GET (long poll) and every WebSocket client; GET /health answers at once.
 */
const held: ServerResponse[] = [];
const server = http.createServer((req, res) => {
  if (req.method === 'POST') {
    void readBody(req).then((body) => {
      const polls = held.splice(0);
      for (const poll of polls) {
        poll.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        poll.end(body);
      }
      for (const ws of wss.clients) ws.send(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"recipients":${polls.length + wss.clients.size}}`);
    });
    return;
  }
  if (req.url === '/health') {
    res.end('{"status":"ok"}');
    return;
  }
  held.push(res);
  res.on('close', () => {
    const at = held.indexOf(res);
    if (at >= 0) held.splice(at, 1);
  });
});
server.requestTimeout = 0;
const wss = new WebSocketServer({ server, perMessageDeflate: false });

server.listen(0, '127.0.0.1', () => {
  serveIpc((server.address() as AddressInfo).port, {
    waiting: () => held.length,
    memory: () => measuredMemory(),
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      server.closeAllConnections();
    },
  });
});
