import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ControlClient, ControlError, JsonControlClient } from 'racedata-sim';
import { closeAll, fakeServer, sendJson, started } from './support';

afterEach(closeAll);

describe('ControlClient: errors and where requests go', () => {
  test('with CONTROL_TOKEN set, a client without it (or with another) gets ControlError 401', async () => {
    const { jsonUrl, json } = await started({ legacy: false, json: { controlToken: 'right' } });
    for (const client of [
      new JsonControlClient(jsonUrl),
      new JsonControlClient(jsonUrl, { token: 'wrong' }),
    ]) {
      const error = (await client.state().catch((e: unknown) => e)) as ControlError;
      expect(error).toBeInstanceOf(ControlError);
      expect(error).toMatchObject({ status: 401, code: 'CONTROL_UNAUTHORIZED' });
      expect(error.message).toContain('Authorization: Bearer');
      await expect(client.metrics()).rejects.toMatchObject({ status: 401, code: 'CONTROL_UNAUTHORIZED' });
      // The customer endpoints are not the control plane's: no token needed there.
      await expect(
        client.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: {} }),
      ).resolves.toMatchObject({ delivery: 'durable' });
    }
    // The kit's own client carries the token.
    await expect(json.state()).resolves.toMatchObject({ store: { events: 2 } });
  });

  test('the token goes to /_sim/* and /metrics only; a base URL’s path and trailing slash are kept right', async () => {
    const seen: Array<{ method?: string; url?: string; authorization?: string; body: string }> = [];
    const base = await fakeServer((req, res, body) => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      if (req.url?.startsWith('/prefix/metrics')) res.end('# metrics\n');
      else if (req.url?.startsWith('/prefix/api/message'))
        sendJson(res, 202, { data: { delivery: 'transient' } });
      else sendJson(res, 200, { rules: [], removed: 0 });
    });
    const client = new JsonControlClient(`${base}/prefix/`, { token: 't0k' });
    expect(client.baseUrl).toBe(`${base}/prefix`);
    await client.faults();
    await client.metrics();
    await client.post({ channel: 'X', date: '2024-05-11', payload: {} });
    await client.journal({ user: 'a b', since: 3 });
    await client.removeFault('f/1');
    expect(seen.map((r) => [r.method, r.url, r.authorization])).toEqual([
      ['GET', '/prefix/_sim/faults', 'Bearer t0k'],
      ['GET', '/prefix/metrics', 'Bearer t0k'],
      ['POST', '/prefix/api/message', undefined],
      ['GET', '/prefix/_sim/journal?user=a+b&since=3', 'Bearer t0k'],
      ['DELETE', '/prefix/_sim/faults/f%2F1', 'Bearer t0k'],
    ]);
    expect(JSON.parse(seen[2]?.body ?? '')).toEqual({ channel: 'X', date: '2024-05-11', payload: {} });
  });

  test('an error answer that is not JSON keeps its status, with HTTP_ERROR and an excerpt as message', async () => {
    const base = await fakeServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad   gateway</body></html>');
    });
    const error = (await new ControlClient(base).state().catch((e: unknown) => e)) as ControlError;
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({ status: 502, code: 'HTTP_ERROR' });
    expect(error.message).toBe(
      `GET ${base}/_sim/state answered 502 Bad Gateway: <html><body>Bad gateway</body></html>`,
    );
    expect(error.body).toBe('<html><body>Bad   gateway</body></html>');
  });

  test('a redirect is never followed: the control token goes nowhere else, and the error says where it pointed', async () => {
    const elsewhere: Array<string | undefined> = [];
    const other = await fakeServer((req, res) => {
      elsewhere.push(req.headers.authorization);
      sendJson(res, 200, {});
    });
    for (const status of [301, 302, 307, 308]) {
      const base = await fakeServer((req, res) =>
        res.writeHead(status, { location: `${other}${req.url}` }).end(),
      );
      const error = (await new ControlClient(base, { token: 'c0ntrol-t0ken' })
        .reset()
        .catch((e: unknown) => e)) as ControlError;
      expect(error).toBeInstanceOf(ControlError);
      expect(error).toMatchObject({ status, code: 'REDIRECT_REFUSED' });
      expect(error.message).toBe(
        `POST ${base}/_sim/reset answered ${status} to ${other}/_sim/reset: not followed (the control client follows no redirect; give the simulator's own URL)`,
      );
    }
    expect(elsewhere).toEqual([]);
  });

  test('a success answer that is not JSON is UNEXPECTED_RESPONSE', async () => {
    const base = await fakeServer((_req, res) => res.end('ok'));
    await expect(new ControlClient(base).state()).rejects.toMatchObject({
      status: 200,
      code: 'UNEXPECTED_RESPONSE',
    });
  });

  test('nothing listening is UNREACHABLE (status 0) naming the socket error', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const error = (await new ControlClient(`http://127.0.0.1:${port}`)
      .state()
      .catch((e: unknown) => e)) as ControlError;
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({ status: 0, code: 'UNREACHABLE' });
    expect(error.message).toContain('ECONNREFUSED');
  });

  test('no answer in time is REQUEST_TIMEOUT (status 0)', async () => {
    const base = await fakeServer(() => undefined);
    const client = new ControlClient(base, { requestTimeoutMs: 50 });
    await expect(client.state()).rejects.toMatchObject({
      status: 0,
      code: 'REQUEST_TIMEOUT',
      message: `GET ${base}/_sim/state: no answer within 50 ms`,
    });
  });
});
