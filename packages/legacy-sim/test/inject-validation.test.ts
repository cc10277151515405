import type { Logger } from '@racedata/core';
import { AUTH, closeAll, startSim } from './support';

afterEach(closeAll);

interface Answer {
  status: number;
  body: { status: string; code?: string; message?: string };
}

async function inject(
  base: string,
  body: string | Buffer,
  { path = '/customerapi/channel/id/Durable', contentType = 'text/xml' } = {},
): Promise<Answer> {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function listenOnce(base: string): Promise<{ status: number; xml?: string }> {
  const res = await fetch(`${base}/customerapi/channels/listen`, { headers: AUTH });
  return res.status === 200 ? { status: 200, xml: (await res.json()) as string } : { status: res.status };
}

describe('injected bodies the server must refuse, queueing nothing', () => {
  it.each([
    [
      'a stray 0xFF byte (no charset: UTF-8)',
      Buffer.from([...Buffer.from('<a>'), 0xff, ...Buffer.from('</a>')]),
      'text/xml',
      /not valid utf-8 \(no charset given/,
    ],
    [
      'a truncated UTF-8 sequence',
      Buffer.from([...Buffer.from('<a>'), 0xc3, 0x28, ...Buffer.from('</a>')]),
      'text/xml; charset=utf-8',
      /not valid utf-8 \(charset from the Content-Type/,
    ],
    [
      'an overlong encoding of "/"',
      Buffer.from([...Buffer.from('<a>'), 0xc0, 0xaf, ...Buffer.from('</a>')]),
      'application/json',
      /not valid utf-8/,
    ],
    [
      'a UTF-8 encoded surrogate',
      Buffer.from([...Buffer.from('<a>'), 0xed, 0xa0, 0x80, ...Buffer.from('</a>')]),
      'text/xml',
      /not valid utf-8/,
    ],
    [
      'invalid bytes under a declared UTF-8 encoding',
      Buffer.concat([
        Buffer.from('<?xml version="1.0" encoding="UTF-8"?><a>'),
        Buffer.from([0xe5]),
        Buffer.from('</a>'),
      ]),
      'application/json',
      /encoding named by the document/,
    ],
  ])('%s: 400 INVALID_XML', async (_why, body, contentType, message) => {
    const run = await startSim({ longPollTimeoutMs: 50 });
    const res = await inject(run.base, body, { contentType });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'fail', code: 'INVALID_XML' });
    expect(res.body.message).toMatch(message);
    expect(run.probe.queues.totalDepth).toBe(0);
  });

  it.each([
    ['a NUL character', '<a>x\u0000y</a>', 'U+0000'],
    ['a NUL in an attribute', '<a b="\u0000"/>', 'U+0000'],
    ['a C0 control', '<a>\u0001</a>', 'U+0001'],
    ['U+FFFE', '<a>\uFFFE</a>', 'U+FFFE'],
    ['a character reference to NUL', '<a>&#0;</a>', '&#0;'],
    ['a hex character reference to a surrogate', '<a>&#xD800;</a>', '&#xD800;'],
    ['a character reference past U+10FFFF', '<a>&#x110000;</a>', '&#x110000;'],
  ])('%s: 400 INVALID_XML naming it', async (_why, xml, named) => {
    const run = await startSim({ longPollTimeoutMs: 50 });
    const res = await inject(run.base, Buffer.from(xml, 'utf8'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_XML');
    expect(res.body.message).toContain(named);
    expect(run.probe.queues.totalDepth).toBe(0);
  });

  it.each([
    [
      'billion laughs',
      `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>`,
    ],
    ['an external entity', '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'],
    ['a lower-case doctype', '<!doctype a><a/>'],
  ])('%s: 400 XML_DOCTYPE_FORBIDDEN', async (_why, xml) => {
    const run = await startSim({ longPollTimeoutMs: 50 });
    const res = await inject(run.base, xml);
    expect(res).toMatchObject({ status: 400, body: { code: 'XML_DOCTYPE_FORBIDDEN' } });
    expect(run.probe.queues.totalDepth).toBe(0);
  });

  it('an empty body: 400 EMPTY_BODY', async () => {
    const run = await startSim();
    expect(await inject(run.base, '')).toMatchObject({ status: 400, body: { code: 'EMPTY_BODY' } });
  });

  it('an unknown charset: 415, the label quoted only in part', async () => {
    const run = await startSim();
    const res = await inject(run.base, '<a/>', { contentType: `text/xml; charset=${'k'.repeat(5000)}` });
    expect(res).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_CHARSET' } });
    expect(res.body.message?.length).toBeLessThan(200);
  });
});

describe('injected bodies the server accepts', () => {
  it('decodes ISO-8859-1 when the content type says so', async () => {
    const run = await startSim({ longPollTimeoutMs: 50 });
    const xml = '<Horse name="Åskvigg"/>';
    const res = await inject(run.base, Buffer.from(xml, 'latin1'), {
      contentType: 'text/xml; charset=ISO-8859-1',
    });
    expect(res.status).toBe(200);
    expect(await listenOnce(run.base)).toEqual({ status: 200, xml });
  });

  it('decodes UTF-16 announced by its byte-order mark', async () => {
    const run = await startSim({ longPollTimeoutMs: 50 });
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<Häst/>', 'utf16le')]);
    expect((await inject(run.base, body, { contentType: 'application/json' })).status).toBe(200);
    expect(await listenOnce(run.base)).toEqual({ status: 200, xml: '<Häst/>' });
  });

  it('takes a 100,000-deep element in stride and keeps serving', async () => {
    const run = await startSim({ longPollTimeoutMs: 50 });
    const deep = '<a>'.repeat(100_000) + '</a>'.repeat(100_000);
    expect((await inject(run.base, deep)).status).toBe(200);
    const unclosed = await inject(run.base, '<a>'.repeat(100_000));
    expect(unclosed).toMatchObject({ status: 400, body: { code: 'INVALID_XML' } });
    expect((await listenOnce(run.base)).xml?.length).toBe(deep.length);
    expect((await fetch(`${run.base}/health`)).status).toBe(200);
  });
});

describe('error messages quote client input only in short excerpts', () => {
  const LONG = 'Z'.repeat(10_000);

  it.each([
    ['an unknown channel id', `/customerapi/channel/${LONG}/Durable`, '<a/>', 'UNKNOWN_CHANNEL'],
    ['an unknown path', `/${LONG}`, '<a/>', 'NOT_FOUND'],
    ['a long mismatched tag name', '/customerapi/channel/id/Durable', `<${LONG}></b>`, 'INVALID_XML'],
    ['a long undefined entity', '/customerapi/channel/id/Durable', `<a>&${LONG};</a>`, 'INVALID_XML'],
    ['a long payloadKey', `/customerapi/channel/id/Durable?payloadKey=${LONG}`, '<a/>', 'BAD_REQUEST'],
  ])('%s', async (_why, path, body, code) => {
    const run = await startSim();
    const res = await inject(run.base, body, { path });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.code).toBe(code);
    expect(res.body.message?.length).toBeLessThan(400);
    expect(res.body.message).not.toContain('Z'.repeat(65));
    expect(run.probe.queues.totalDepth).toBe(0);
  });

  it('accepts a payloadKey of 1,024 characters', async () => {
    const run = await startSim();
    const res = await inject(run.base, '<a/>', {
      path: `/customerapi/channel/id/Durable?payloadKey=${'k'.repeat(1024)}`,
    });
    expect(res.status).toBe(200);
  });
});

describe('LEGACY_QUEUE_MAX_BYTES', () => {
  it('refuses a durable message larger than the budget with 413; transient ones are not queued and pass', async () => {
    const run = await startSim({ legacyQueueMaxBytes: 100 });
    const big = `<a>${'x'.repeat(100)}</a>`;
    const res = await inject(run.base, big);
    expect(res).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(res.body.message).toContain('LEGACY_QUEUE_MAX_BYTES');
    expect(run.probe.queues.totalDepth).toBe(0);
    expect((await inject(run.base, big, { path: '/customerapi/channel/id/NonDurable' })).status).toBe(200);
  });

  it('drops the oldest to stay within the budget and logs one summary for a flood of drops', async () => {
    const warn = jest.fn();
    const logger: Logger = { debug: jest.fn(), info: jest.fn(), warn, error: jest.fn(), child: () => logger };
    const run = await startSim({ legacyQueueMaxBytes: 1_000, longPollTimeoutMs: 50 }, { logger });
    for (let i = 0; i < 60; i++) {
      expect(
        (await inject(run.base, `<m n="${String(i).padStart(3, '0')}">${'x'.repeat(81)}</m>`)).status,
      ).toBe(200);
    }
    expect(run.probe.queues.queuedBytes).toBeLessThanOrEqual(1_000);
    expect(run.probe.queues.dropCounts).toEqual({ count: 0, bytes: 50 });
    expect(warn.mock.calls.length).toBeLessThanOrEqual(1);
    await run.sim.close();
    const summaries = warn.mock.calls.map(([fields]) => fields as { dropped: number });
    expect(summaries.reduce((n, s) => n + s.dropped, 0)).toBe(50);
  });
});
