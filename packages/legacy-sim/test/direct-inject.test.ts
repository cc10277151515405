import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { UserTable } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import { legacyChannelCatalog } from '../src/description';
import { AUTH, closeAll, startSim, type Running } from './support';

// Plain injections are served without express (src/http/direct-inject.ts). These tests send the
// same raw requests to the simulator's own server and to its express app served on its own,
// and hold the two to the same bytes, and the direct path to taking only what it should.

afterEach(closeAll);

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The simulator on its server, and its express app alone on a second one (same state). */
async function both(
  settings: { maxBodyBytes?: number } = {},
): Promise<{ sim: Running; direct: number; express: number }> {
  const catalog = legacyChannelCatalog();
  const users = UserTable.fromJSON(
    [
      { name: 'default', key: 'testuser', secret: 'testpassword', token: TOKENS.testuser, channels: '*' },
      { name: 'results', key: 'r', secret: 'r', token: 'cg==', channels: ['Result'] },
    ],
    catalog,
  );
  const sim = await startSim(settings, { users, catalog });
  const server = createServer(sim.sim.app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { sim, direct: Number(new URL(sim.base).port), express: address.port };
}

/** Sends `request` as it is and reads the answer to the end (Connection: close); fails after 5 s with what came. */
function exchange(port: number, request: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 5 s; got: ${Buffer.concat(chunks).toString('latin1')}`));
    }, 5000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => {
      clearTimeout(deadline);
      reject(err);
    });
    socket.on('end', () => {
      clearTimeout(deadline);
      socket.destroy();
      // The Date header is the only part that may differ between two answers.
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/i, ''),
      );
    });
    socket.end(request);
  });
}

function postText(path: string, body: Buffer | string, headers: Record<string, string> = {}): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  const all = { 'Content-Length': String(bytes.length), ...headers };
  for (const [name, value] of Object.entries(all)) if (value !== '') lines.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes]);
}

const XML =
  '<?xml version="1.0" encoding="UTF-8"?><TimeToStart><SecondsToStart>300</SecondsToStart></TimeToStart>';
const LATIN1 = Buffer.from('<?xml version="1.0"?><Result><Horse>Åsa Öberg</Horse></Result>', 'latin1');

/** Requests the direct path takes: each gets the same answer from both servers. */
const PLAIN: Array<[string, Buffer]> = [
  ['a durable post with a payloadKey', postText('/customerapi/channel/id/Durable?payloadKey=race-1', XML)],
  [
    'a transient post without one',
    postText('/customerapi/channel/id/NonDurable', XML, { 'Content-Type': 'text/xml' }),
  ],
  ['a catalog channel', postText('/customerapi/channel/Result/Durable?payloadKey=r', XML)],
  ['an unknown channel', postText('/customerapi/channel/Nope/Durable', XML)],
  ['a repeated payloadKey', postText('/customerapi/channel/id/Durable?payloadKey=a&payloadKey=b', XML)],
  [
    'a payloadKey over 1,024 characters',
    postText(`/customerapi/channel/id/Durable?payloadKey=${'k'.repeat(1025)}`, XML),
  ],
  ['malformed XML', postText('/customerapi/channel/id/Durable', '<a><b></a>')],
  ['an empty body', postText('/customerapi/channel/id/NonDurable', '')],
  [
    'ISO-8859-1 named by the content type',
    postText('/customerapi/channel/id/Durable', LATIN1, { 'Content-Type': 'text/xml; charset=ISO-8859-1' }),
  ],
  ['ISO-8859-1 sent as UTF-8', postText('/customerapi/channel/id/Durable', LATIN1)],
  [
    'an unknown charset',
    postText('/customerapi/channel/id/Durable', XML, { 'Content-Type': 'text/xml; charset=klingon-8' }),
  ],
  ['a body at the limit', postText('/customerapi/channel/id/Durable', `<a>${'x'.repeat(193)}</a>`)],
];

/** Requests the direct path leaves to express, with why. */
const OTHERS: Array<[string, Buffer]> = [
  ['a body over the limit', postText('/customerapi/channel/id/Durable', `<a>${'x'.repeat(194)}</a>`)],
  [
    'a chunked body',
    postText('/customerapi/channel/id/Durable', `${XML.length.toString(16)}\r\n${XML}\r\n0\r\n\r\n`, {
      'Content-Length': '',
      'Transfer-Encoding': 'chunked',
    }),
  ],
  ['a gzip body', postText('/customerapi/channel/id/Durable', gzipSync(XML), { 'Content-Encoding': 'gzip' })],
  ['a trailing slash', postText('/customerapi/channel/id/Durable/', XML)],
  ['an escaped channel', postText('/customerapi/channel/%69d/NonDurable', XML)],
  ['another spelling', postText('/CustomerAPI/channel/id/nondurable', XML)],
  [
    'another method',
    Buffer.from(
      `PUT /customerapi/channel/id/Durable HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 4\r\n\r\n<a/>`,
    ),
  ],
];

describe('plain injections without express', () => {
  it.each(PLAIN)('%s: the same answer as express, and express is not asked', async (_name, request) => {
    const { sim, direct, express } = await both({ maxBodyBytes: 200 });
    const handle = jest.spyOn(sim.sim.app as unknown as { handle: () => void }, 'handle');
    const viaDirect = await exchange(direct, request);
    expect(handle).not.toHaveBeenCalled();
    const viaExpress = await exchange(express, request);
    expect(handle).toHaveBeenCalledTimes(1);
    expect(viaDirect).toBe(viaExpress);
    expect(viaDirect).toMatch(/^HTTP\/1\.1 (200|4\d\d) /);
  });

  it('queues the same message both ways', async () => {
    const { sim, direct, express } = await both();
    const request = postText('/customerapi/channel/id/Durable?payloadKey=same', XML);
    expect(await exchange(direct, request)).toContain('"queued":2');
    expect(await exchange(express, request)).toContain('"queued":2');
    expect(await listenOnce(sim.base)).toBe(XML);
    expect(await listenOnce(sim.base)).toBe(XML);
  });

  it.each(OTHERS)('%s: left to express, which answers as before', async (_name, request) => {
    const { sim, direct, express } = await both({ maxBodyBytes: 200 });
    const handle = jest.spyOn(sim.sim.app as unknown as { handle: () => void }, 'handle');
    const viaDirect = await exchange(direct, request);
    expect(handle).toHaveBeenCalledTimes(1);
    expect(viaDirect).toBe(await exchange(express, request));
  });

  it('a client that hangs up mid-body stores nothing, and the next post goes through', async () => {
    const { sim, direct } = await both();
    const cutShort = postText('/customerapi/channel/id/Durable?payloadKey=cut', '<Cut>never whole</Cut>');
    for (const bytes of [cutShort.length - 22, cutShort.length - 5]) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(direct, '127.0.0.1', () => {
          socket.write(cutShort.subarray(0, bytes), () => socket.destroy());
        });
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
    }
    const whole = postText('/customerapi/channel/id/Durable?payloadKey=whole', XML);
    expect(await exchange(direct, whole)).toContain('"queued":2');
    expect(sim.probe.queues.totalDepth).toBe(2);
    expect(await listenOnce(sim.base)).toBe(XML);
  });
});

/** One held listen of testuser: the XML it answered with. */
async function listenOnce(base: string): Promise<string> {
  const res = await fetch(`${base}/customerapi/channels/listen`, { headers: AUTH });
  if (res.status !== 200) throw new Error(`listen answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as string;
}
