import request from 'supertest';
import { TOKENS } from '@racedata/test-support';
import { UserTable, type SimulatorSettings } from '@racedata/core';
import { legacyChannelCatalog } from '../src/description';
import type { LegacySimulatorProbe } from '../src';
import { closeAll, createProbed } from './support';

interface Handle {
  app: Parameters<typeof request>[0];
  users: UserTable;
  queues: LegacySimulatorProbe['queues'];
  hub: LegacySimulatorProbe['hub'];
}

function sim(settings: Partial<SimulatorSettings> = {}): Handle {
  const catalog = legacyChannelCatalog();
  const users = UserTable.fromJSON(
    [
      { name: 'default', key: 'testuser', secret: 'testpassword', token: TOKENS.testuser, channels: '*' },
      { name: 'results', key: 'r', secret: 'r', token: 'cg==', channels: ['Result'] },
    ],
    catalog,
  );
  const { sim: s, probe } = createProbed(settings, { users, catalog });
  return { app: s.app, users, queues: probe.queues, hub: probe.hub };
}
afterEach(closeAll);

const testuser = (s: Handle) => s.users.byKey('testuser')!;
const results = (s: Handle) => s.users.byKey('r')!;

describe('POST /customerapi/channel/{channelId}/Durable', () => {
  it('queues for every user on `id`, with no authentication and XML labelled as JSON', async () => {
    const s = sim();
    const res = await request(s.app)
      .post('/customerapi/channel/id/Durable?payloadKey=abc')
      .set('content-type', 'application/json')
      .send('<xml>Hello, world!</xml>');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', data: { delivery: 'durable', queued: 2 } });
    expect(s.queues.depth(testuser(s))).toBe(1);
    expect(s.queues.depth(results(s))).toBe(1);
  });

  it.each([
    ['text/xml', '<a/>'],
    ['application/octet-stream', '<a/>'],
    ['application/x-www-form-urlencoded', '<a/>'],
  ])('accepts any content type (%s)', async (type, body) => {
    const s = sim();
    const res = await request(s.app)
      .post('/customerapi/channel/id/Durable')
      .set('content-type', type)
      .send(body);
    expect(res.status).toBe(200);
  });

  it('queues a catalog channel only for its subscribers; payloadKey is optional', async () => {
    const s = sim();
    const res = await request(s.app)
      .post('/customerapi/channel/RaceDay/Durable')
      .set('content-type', 'text/xml')
      .send('<RaceDay/>');
    expect(res.body.data).toEqual({ delivery: 'durable', queued: 1 });
    expect(s.queues.depth(results(s))).toBe(0);
  });

  it('answers 400 listing the known channels for an unknown one', async () => {
    const s = sim();
    const res = await request(s.app).post('/customerapi/channel/Bogus/Durable').send('<a/>');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_CHANNEL');
    expect(res.body.message).toContain('id, RaceDay, StartList');
  });

  it.each([
    ['malformed XML', '<a><b></a>', 'INVALID_XML'],
    ['plain text', 'Hello', 'INVALID_XML'],
    ['a DOCTYPE (no entity expansion)', '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', 'XML_DOCTYPE_FORBIDDEN'],
    ['an empty body', '', 'EMPTY_BODY'],
  ])('answers 400 for %s and queues nothing', async (_why, body, code) => {
    const s = sim();
    const res = await request(s.app)
      .post('/customerapi/channel/id/Durable')
      .set('content-type', 'application/json')
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'fail', code, message: expect.any(String) });
    expect(s.queues.totalDepth).toBe(0);
  });

  it('answers 400 for a repeated payloadKey', async () => {
    const res = await request(sim().app)
      .post('/customerapi/channel/id/Durable?payloadKey=a&payloadKey=b')
      .send('<a/>');
    expect(res.status).toBe(400);
  });

  it('answers 413 above maxBodyBytes (1 MiB by default) and queues nothing', async () => {
    const s = sim();
    const big = `<a>${'x'.repeat(1024 * 1024)}</a>`;
    const res = await request(s.app)
      .post('/customerapi/channel/id/Durable')
      .set('content-type', 'text/xml')
      .send(big);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(s.queues.totalDepth).toBe(0);
  });

  it('accepts a body just under the limit', async () => {
    const s = sim({ maxBodyBytes: 100 });
    const exact = `<a>${'x'.repeat(93)}</a>`;
    expect(Buffer.byteLength(exact)).toBe(100);
    expect((await request(s.app).post('/customerapi/channel/id/Durable').send(exact)).status).toBe(200);
    expect((await request(s.app).post('/customerapi/channel/id/Durable').send(`${exact} `)).status).toBe(413);
  });
});

describe('POST /customerapi/channel/{channelId}/NonDurable', () => {
  it('reports zero recipients when no STOMP client subscribes, and queues nothing', async () => {
    const s = sim();
    const res = await request(s.app)
      .post('/customerapi/channel/id/NonDurable')
      .set('content-type', 'application/json')
      .send('<xml>Hello, world!</xml>');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', data: { delivery: 'transient', recipients: 0 } });
    expect(s.queues.totalDepth).toBe(0);
  });

  it('fans out through the hub to matching users only', async () => {
    const s = sim();
    const seen: string[] = [];
    s.hub.subscribe(testuser(s), (m) => void seen.push(`testuser ${m.payload}`));
    s.hub.subscribe(results(s), (m) => void seen.push(`r ${m.payload}`));
    const res = await request(s.app)
      .post('/customerapi/channel/TimeToStart/NonDurable?payloadKey=7')
      .send('<t/>');
    expect(res.body.data).toEqual({ delivery: 'transient', recipients: 1 });
    expect(seen).toEqual(['testuser <t/>']);
  });

  it('refuses malformed XML and sends nothing', async () => {
    const s = sim();
    const deliver = jest.fn();
    s.hub.subscribe(testuser(s), deliver);
    expect((await request(s.app).post('/customerapi/channel/id/NonDurable').send('<a>')).status).toBe(400);
    expect(deliver).not.toHaveBeenCalled();
  });
});

describe('other routes', () => {
  it('serves /health', async () => {
    const res = await request(sim().app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', simulator: 'legacy' });
  });

  it.each([
    ['GET', '/nope'],
    ['GET', '/customerapi/channel/id/Durable'],
    ['POST', '/customerapi/channel/id/Sometimes'],
  ])('answers 404 JSON for %s %s', async (method, path) => {
    const app = sim().app;
    const res = await (method === 'GET' ? request(app).get(path) : request(app).post(path).send('<a/>'));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'fail', code: 'NOT_FOUND' });
  });

  it('answers 405 with Allow: GET for another method on the listen path', async () => {
    const res = await request(sim().app).post('/customerapi/channels/listen').send('<a/>');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.body).toMatchObject({ status: 'fail', code: 'METHOD_NOT_ALLOWED' });
  });
});
