import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exitSoon, serveIpc } from '../lib/child-ipc';

/** Baseline for read throughput: every GET gets the same pre-serialised body. */
let body = Buffer.from('{}');
const server = http.createServer((req, res) => {
  if (req.url === '/health') {
    res.end('{"status":"ok"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});

server.listen(0, '127.0.0.1', () => {
  serveIpc((server.address() as AddressInfo).port, {
    'set-body': (args) => {
      body = Buffer.from(String(args.base64), 'base64');
      return body.length;
    },
    close: () => {
      server.closeAllConnections();
      return exitSoon();
    },
  });
});
