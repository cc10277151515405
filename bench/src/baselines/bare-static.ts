import http from 'node:http';
import type { AddressInfo } from 'node:net';
import querystring from 'node:querystring';
import { serveIpc } from '../lib/child-ipc';

/**
 * Baseline for read throughput: the least a page read can do. It takes the same request as the
 * simulator (path with query string, authorization header), parses the query, checks the header
 * and sends a prebuilt page of the same bytes.
 */
let body = Buffer.from('{}');
let authorization: string | undefined;
const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === '/health') {
    res.end('{"status":"ok"}');
    return;
  }
  const q = url.indexOf('?');
  const query = q < 0 ? {} : querystring.parse(url.slice(q + 1));
  if (authorization !== undefined && req.headers.authorization !== authorization) {
    res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"error":"unauthorized"}');
    return;
  }
  if (query.lastEventId !== undefined && !/^\d+$/.test(String(query.lastEventId))) {
    res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"error":"lastEventId"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});

server.listen(0, '127.0.0.1', () => {
  serveIpc((server.address() as AddressInfo).port, {
    /** The page to send and the authorization header every request must carry. */
    'set-body': (args) => {
      body = Buffer.from(String(args.base64), 'base64');
      authorization = args.authorization === undefined ? undefined : String(args.authorization);
      return body.length;
    },
    close: () => server.closeAllConnections(),
  });
});
