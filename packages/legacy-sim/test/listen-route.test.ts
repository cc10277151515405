import http from 'node:http';
import { TOKENS } from '@racedata/test-support';
import { AUTH, closeAll, post, startSim, waitFor, type Running } from './support';

afterEach(closeAll);

const listen = (base: string, init: RequestInit = {}) =>
  fetch(`${base}/customerapi/channels/listen`, { headers: AUTH, ...init });

/** Resolves once the server has received `count` listen requests (each is then held). */
function requestsSeen(run: Running, count: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    run.sim.server.on('request', (req: http.IncomingMessage) => {
      if (req.url?.startsWith('/customerapi/channels/listen') && ++seen === count) resolve();
    });
  });
}

describe('GET /customerapi/channels/listen', () => {
  it.each([
    ['no authorization header', {}],
    ['an unknown token', { authorization: 'Bearer nope' }],
    ['a non-Bearer header', { authorization: TOKENS.testuser }],
  ])('answers 401 for %s', async (_why, headers) => {
    const { base } = await startSim();
    const res = await fetch(`${base}/customerapi/channels/listen`, { headers });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: 'fail' });
  });

  it('returns a queued document at once as a JSON string', async () => {
    const { base } = await startSim({ longPollTimeoutMs: 60_000 });
    const xml = '<?xml version="1.0"?><RaceDay track="Solvalla">Åby &amp; Örebro</RaceDay>';
    expect((await post(base, '/customerapi/channel/id/Durable?payloadKey=k1', xml)).status).toBe(200);
    const res = await listen(base);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text.startsWith('"')).toBe(true);
    expect(JSON.parse(text)).toBe(xml);
  });

  it('holds the request until a message arrives', async () => {
    const run = await startSim({ longPollTimeoutMs: 60_000 });
    const held = requestsSeen(run, 1);
    const poll = listen(run.base);
    await held;
    await post(run.base, '/customerapi/channel/RaceDay/Durable', '<later/>');
    const res = await poll;
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('<later/>');
  });

  it('answers 204 with no body after the long-poll timeout', async () => {
    const { base } = await startSim({ longPollTimeoutMs: 50 });
    const res = await listen(base);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('serves a plain fetch long-poll loop: 200 store and poll again, 204 poll again', async () => {
    const run = await startSim({ longPollTimeoutMs: 40 });
    const stored: string[] = [];
    let noContent = 0;
    const loop = (async () => {
      while (stored.length < 3) {
        const res = await listen(run.base);
        if (res.status === 200) stored.push((await res.json()) as string);
        else if (res.status === 204) noContent += 1;
        else throw new Error(`unexpected ${res.status}`);
      }
    })();
    await post(run.base, '/customerapi/channel/id/Durable', '<m n="1"/>');
    await post(run.base, '/customerapi/channel/id/Durable', '<m n="2"/>');
    // Let at least one poll time out before the last message.
    await waitFor(() => noContent > 0, 'a 204');
    await post(run.base, '/customerapi/channel/id/Durable', '<m n="3"/>');
    await loop;
    expect(stored).toEqual(['<m n="1"/>', '<m n="2"/>', '<m n="3"/>']);
    expect(noContent).toBeGreaterThan(0);
  });

  it('loses nothing when the client hangs up mid-poll', async () => {
    const run = await startSim({ longPollTimeoutMs: 60_000 });
    const serverSaw = new Promise<http.ServerResponse>((resolve) =>
      run.sim.server.once('request', (_req, res: http.ServerResponse) => resolve(res)),
    );
    const url = new URL(`${run.base}/customerapi/channels/listen`);
    const clientReq = http.get(url, { headers: AUTH, agent: false });
    clientReq.on('error', () => undefined);
    const res = await serverSaw;
    const serverClosed = new Promise((resolve) => res.once('close', resolve));
    clientReq.destroy();
    await serverClosed;
    await post(run.base, '/customerapi/channel/id/Durable', '<kept/>');
    const next = await listen(run.base);
    expect(next.status).toBe(200);
    expect(await next.json()).toBe('<kept/>');
  });

  it('gives each message to exactly one of two concurrent polls', async () => {
    const run = await startSim({ longPollTimeoutMs: 60_000 });
    const held = requestsSeen(run, 2);
    const polls = [listen(run.base), listen(run.base)];
    await held;
    await post(run.base, '/customerapi/channel/id/Durable', '<one/>');
    await post(run.base, '/customerapi/channel/id/Durable', '<two/>');
    const bodies = await Promise.all(polls.map(async (p) => (await p).json()));
    expect(bodies.sort()).toEqual(['<one/>', '<two/>']);
    // Both stay leased until their connections show the client read them; none is left to hand out.
    expect(run.probe.queues.totalDepth - run.probe.queues.totalLeased).toBe(0);
  });

  it('keeps messages that arrived while nobody was polling, oldest first', async () => {
    const { base } = await startSim();
    for (const n of [1, 2, 3]) await post(base, '/customerapi/channel/id/Durable', `<m n="${n}"/>`);
    const got = [];
    for (let i = 0; i < 3; i++) got.push(await (await listen(base)).json());
    expect(got).toEqual(['<m n="1"/>', '<m n="2"/>', '<m n="3"/>']);
  });

  it('answers held polls with 204 on close()', async () => {
    const run = await startSim({ longPollTimeoutMs: 60_000 });
    const held = requestsSeen(run, 1);
    const poll = listen(run.base);
    await held;
    const started = Date.now();
    await run.sim.close();
    expect((await poll).status).toBe(204);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
