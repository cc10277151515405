/**
 * certify's own calls (control plane, message posts) follow no redirect, and scope a fault rule
 * to the certified user wherever a request names its user, so another process on the port
 * (--attach) cannot take the client's fault.
 */
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfterTest, closeAll } from '@racedata/test-support';
import { controlCalls } from '../src/server/control-calls';

afterEach(closeAll);

async function server(
  handle: (req: IncomingMessage, body: string, res: http.ServerResponse) => void,
): Promise<string> {
  const s = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handle(req, body, res));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  closeAfterTest({
    close: () => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))),
  });
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

test('a redirect answering a control call is not followed, and fails the call naming it', async () => {
  const elsewhere: string[] = [];
  const other = await server((req, _body, res) => {
    elsewhere.push(req.url ?? '');
    res.end('{}');
  });
  const base = await server((req, _body, res) =>
    res.writeHead(307, { location: `${other}${req.url}` }).end(),
  );
  const calls = controlCalls({ base, user: 'certify-client', ownCallToken: 'own' });
  await expect(calls.expireTokens()).rejects.toMatchObject({
    code: 'CONTROL_CALL_FAILED',
    message: expect.stringContaining('HTTP 307'),
  });
  expect(elsewhere).toEqual([]);
});

test('fault rules name the certified user on the transports whose requests carry its token, not on the event stream', async () => {
  const rules: unknown[] = [];
  const base = await server((_req, body, res) => {
    rules.push(JSON.parse(body));
    res.end('{"id":"f1"}');
  });
  const calls = controlCalls({ base, user: 'certify-client', ownCallToken: 'own' });
  for (const transport of ['events', 'listen', 'stomp', 'event-stream']) {
    await calls.addFault({ match: { transport }, action: { type: 'status', status: 503 } });
  }
  expect(rules.map((r) => (r as { match: unknown }).match)).toEqual([
    { transport: 'events', user: 'certify-client' },
    { transport: 'listen', user: 'certify-client' },
    { transport: 'stomp', user: 'certify-client' },
    { transport: 'event-stream' },
  ]);
});
