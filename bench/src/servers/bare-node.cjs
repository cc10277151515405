'use strict';
// The bare baseline of every measure: Node http + ws with no logic, doing each job the least way.
// POST /publish sends its body to every held GET /poll (long poll) and every WebSocket client, as
// a text frame like the simulators'. A page read (any other GET) parses the query, checks the
// authorization header and sends the page set with POST /_page, pre-serialised. GET /_sim/state
// counts the held polls the way the simulators do, so the harness waits for them alike.
const http = require('node:http');
const querystring = require('node:querystring');
const { WebSocketServer } = require('ws');

const held = new Set();
let page = Buffer.from('{}');
let authorization;
const JSON_TYPE = 'application/json; charset=utf-8';
const answer = (res, status, body) =>
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': body.length }).end(body);

function readBody(req, then) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => then(Buffer.concat(chunks)));
}

const server = http.createServer((req, res) => {
  const url = req.url || '/';
  if (req.method === 'POST') {
    readBody(req, (body) => {
      if (url === '/_page') {
        page = body;
        authorization = req.headers['x-authorization'];
        return res.end(String(page.length));
      }
      for (const poll of held) {
        poll.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        poll.end(body);
      }
      const recipients = held.size + wss.clients.size;
      held.clear();
      for (const ws of wss.clients) ws.send(body, { binary: false });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"recipients":${recipients}}`);
    });
    return;
  }
  if (url === '/health') return res.end('{"status":"ok"}');
  if (url === '/_sim/state') return res.end(`{"users":{"bare":{"heldPolls":${held.size}}}}`);
  if (url === '/poll') {
    held.add(res);
    res.on('close', () => held.delete(res));
    return;
  }
  const q = url.indexOf('?');
  const query = q < 0 ? {} : querystring.parse(url.slice(q + 1));
  if (authorization !== undefined && req.headers.authorization !== authorization)
    return answer(res, 401, '{"error":"unauthorized"}');
  if (query.lastEventId !== undefined && !/^\d+$/.test(String(query.lastEventId)))
    return answer(res, 400, '{"error":"lastEventId"}');
  answer(res, 200, page);
});
server.requestTimeout = 0;
const wss = new WebSocketServer({ server, perMessageDeflate: false });
server.listen(0, '127.0.0.1', () =>
  console.log(`bare Node listening on http://127.0.0.1:${server.address().port}`),
);
