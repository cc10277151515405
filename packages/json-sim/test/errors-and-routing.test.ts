import request from 'supertest';
import WebSocket from 'ws';
import { TOKENS } from '@racedata/test-support';
import { EVENTS_PATH, FILTERED_PATH, closeAll, event, get, startSim, type Started } from './helpers';

let s: Started;

beforeEach(async () => {
  s = await startSim();
  s.probe.publish(event('RaceDayTrot'));
});

afterEach(closeAll);

function expectNotFound(res: { status: number; body: unknown; headers: Record<string, string> }): void {
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.body as { status: string; message: unknown };
  expect(body.status).toBe('fail');
  expect(typeof body.message).toBe('string');
}

describe('routing', () => {
  it('GET /health answers {"status":"ok","simulator":"json"}', async () => {
    const res = await get(s.base, '/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 'ok', simulator: 'json' });
  });

  it.each([
    '/',
    '/nope',
    '/customerapi',
    '/customerapi/event',
    '/customerapi/channels/listen',
    '/api/messages',
  ])('GET %s is 404 {"status":"fail"}', async (path) => {
    expectNotFound(await request(s.sim.app).get(path).set('authorization', `Bearer ${TOKENS.testuser}`));
  });

  it('an unknown path is 404 over a real socket too', async () => {
    const res = await get(s.base, '/customerapi/unknown', TOKENS.testuser);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'fail' });
  });

  describe.each([EVENTS_PATH, FILTERED_PATH])('methods other than GET on %s', (path) => {
    it.each(['post', 'put', 'delete', 'patch'] as const)('%s is 404 {"status":"fail"}', async (method) => {
      const res = await request(s.sim.app)
        [method](path)
        .set('authorization', `Bearer ${TOKENS.testuser}`)
        .set('content-type', 'application/json')
        .send('{}');
      expectNotFound(res);
    });

    it('OPTIONS is 404', async () => {
      const res = await request(s.sim.app).options(path).set('authorization', `Bearer ${TOKENS.testuser}`);
      expect(res.status).toBe(404);
    });

    it('POST over a real socket is 404 and stores nothing', async () => {
      const res = await fetch(`${s.base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.testuser}`, 'content-type': 'application/json' },
        body: JSON.stringify(event('RaceDayTrot')),
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ status: 'fail' });
      expect(s.probe.store.size).toBe(1);
    });
  });

  it('GET on the event endpoints still works (the 404s above are about the method)', async () => {
    expect((await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser)).status).toBe(200);
    expect((await get(s.base, FILTERED_PATH, TOKENS.testuser)).status).toBe(200);
  });

  it('refuses a WebSocket upgrade on an unknown path with 404', async () => {
    const port = s.address.port;
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/customerapi/nope`);
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => {
        ws.terminate();
        reject(new Error('upgrade on an unknown path was accepted'));
      });
      ws.on('error', () => undefined);
    });
    expect(status).toBe(404);
  });
});

describe('error bodies', () => {
  it('every error is {"status":"fail","message"} with a JSON content type', async () => {
    const cases = [
      await request(s.sim.app).get(EVENTS_PATH),
      await request(s.sim.app)
        .get(`${EVENTS_PATH}?limit=x`)
        .set('authorization', `Bearer ${TOKENS.testuser}`),
      await request(s.sim.app)
        .get(`${FILTERED_PATH}?channel=Nope`)
        .set('authorization', `Bearer ${TOKENS.testuser}`),
      await request(s.sim.app).post('/api/message').set('content-type', 'application/json').send('{'),
      await request(s.sim.app).get('/missing'),
    ];
    expect(cases.map((r) => r.status)).toEqual([401, 400, 400, 400, 404]);
    for (const res of cases) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body as object).sort()).toEqual(['message', 'status']);
      expect((res.body as { status: string }).status).toBe('fail');
    }
  });
});
