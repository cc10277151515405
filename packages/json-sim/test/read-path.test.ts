import http from 'node:http';
import { type EventInput } from '@racedata/core';
import { jsonChannelCatalog } from '../src/description';
import type { StoredEvent } from '@racedata/json-sim';
import { TOKENS } from '@racedata/test-support';
import { EVENTS_PATH, FILTERED_PATH, closeAll, event, startSim, waitFor, type Started } from './helpers';

// GET /customerapi/events and /filtered-events are answered by a direct read path ahead of
// express (src/http/read-path.ts); express answers everything else, including other spellings
// of the same paths (a trailing slash, another case), which it matches too. Both must give the
// same bytes, so each case here asks both ways over a real socket.

afterEach(closeAll);

interface RawResponse {
  status: number;
  /** Raw header lines as sent (name case kept), without Date, which follows the clock. */
  headers: string[];
  body: Buffer;
}

function rawGet(s: Started, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: s.address.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]?.toLowerCase() !== 'date')
            lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
  });
}

const auth = (token: string = TOKENS.testuser) => ({ authorization: `Bearer ${token}` });

/** The same request through the direct path and through express (trailing slash). */
async function bothWays(s: Started, path: string, query: string, headers: http.OutgoingHttpHeaders = auth()) {
  // Every request express answers goes through app.handle (not in express's type definitions).
  const app = s.sim.app as unknown as { handle: (...args: unknown[]) => void };
  const handle = jest.spyOn(app, 'handle');
  const direct = await rawGet(s, `${path}${query}`, headers);
  const directUsedExpress = handle.mock.calls.length > 0;
  handle.mockClear();
  const viaExpress = await rawGet(s, `${path}/${query}`, headers);
  expect(handle).toHaveBeenCalledTimes(1);
  handle.mockRestore();
  return { direct, viaExpress, directUsedExpress };
}

const NON_ASCII: EventInput = {
  channel: 'RaceDayTrot',
  date: '2026-01-05',
  trackId: 5,
  payload: { track: 'Åby', horse: 'Järvsöfaks', note: 'quote " backslash \\ line\u2028 🐎' },
};

function fill(s: Started): StoredEvent[] {
  const stored: StoredEvent[] = [];
  const channels = ['RaceDayTrot', 'StartListTrot', 'ResultGallop', 'ResultTrot', 'RaceDayGallop'];
  for (let i = 0; i < 40; i++) {
    const input = i === 7 ? NON_ASCII : event(channels[i % channels.length] as string, { raceNr: i % 4 });
    const result = s.probe.publish({ ...input, date: `2026-01-0${1 + (i % 5)}` });
    if (result.delivery === 'durable') stored.push(result.event);
  }
  return stored;
}

describe('the direct read path answers exactly as express', () => {
  let s: Started;
  beforeEach(async () => {
    s = await startSim({ eventsDefaultLimit: 10 });
    fill(s);
  });

  it.each([
    ['a page with hasMore', EVENTS_PATH, '?lastEventId=0&limit=5'],
    ['the page holding a non-ASCII payload', EVENTS_PATH, '?lastEventId=4&limit=8'],
    ['the default limit', EVENTS_PATH, '?lastEventId=2'],
    ['the latest event (no lastEventId)', EVENTS_PATH, ''],
    [
      'filtered by channel and dates',
      FILTERED_PATH,
      '?channel=RaceDayTrot&startDate=2026-01-01&endDate=2026-01-03',
    ],
    ['filtered by raceNr over the subscription', FILTERED_PATH, '?raceNr=2&lastEventId=3&limit=4'],
    ['an empty filtered page (204)', FILTERED_PATH, '?channel=RaceDayTrot&startDate=2027-01-01'],
  ])('%s', async (_name, path, query) => {
    const { direct, viaExpress, directUsedExpress } = await bothWays(s, path, query);
    expect(directUsedExpress).toBe(false);
    expect(direct.status).toBe(viaExpress.status);
    expect(direct.headers).toEqual(viaExpress.headers);
    expect(direct.body.equals(viaExpress.body)).toBe(true);
  });

  it('writes the body JSON.stringify gives for the page, with its UTF-8 length', async () => {
    const res = await rawGet(s, `${EVENTS_PATH}?lastEventId=4&limit=8`, auth(TOKENS.alluser));
    const page = s.probe.store.query({
      channels: jsonChannelCatalog().names('durable'),
      afterId: 4,
      limit: 8,
    });
    const events = s.probe.store.events(page.ids);
    const expected = JSON.stringify({
      status: 'success',
      data: { numberOfEvents: events.length, hasMore: page.hasMore, events },
    });
    expect(res.body.toString('utf8')).toBe(expected);
    expect(res.headers).toContain(`Content-Length: ${Buffer.byteLength(expected, 'utf8')}`);
    expect(res.headers).toContain('Content-Type: application/json; charset=utf-8');
    expect(res.body.toString('utf8')).toContain('Järvsöfaks');
  });

  it.each([
    ['no token', EVENTS_PATH, '?lastEventId=0', {}],
    ['an unknown token', EVENTS_PATH, '?lastEventId=0', auth('nope')],
    ['a bad limit', EVENTS_PATH, '?lastEventId=0&limit=x', auth()],
    ['a repeated lastEventId', EVENTS_PATH, '?lastEventId=1&lastEventId=2', auth()],
    ['an unsubscribed channel', FILTERED_PATH, '?channel=ResultGallop', auth()],
    ['an unknown channel', FILTERED_PATH, '?channel=Nope', auth()],
    ['dates the wrong way round', FILTERED_PATH, '?startDate=2026-01-05&endDate=2026-01-01', auth()],
  ])('errors: %s', async (_name, path, query, headers) => {
    // The direct path hands a request it cannot answer to express, untouched.
    const { direct, viaExpress, directUsedExpress } = await bothWays(s, path, query, headers);
    expect(directUsedExpress).toBe(true);
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(direct.status).toBe(viaExpress.status);
    expect(direct.headers).toEqual(viaExpress.headers);
    expect(direct.body.toString('utf8')).toBe(viaExpress.body.toString('utf8'));
  });

  it('answers conditional and range requests directly, as a full page like any other', async () => {
    const plain = await rawGet(s, `${EVENTS_PATH}?lastEventId=0&limit=3`, auth());
    for (const extra of [{ 'if-none-match': '*' }, { 'if-modified-since': new Date().toUTCString() }]) {
      const headers = { ...auth(), ...extra };
      const { direct, viaExpress, directUsedExpress } = await bothWays(
        s,
        EVENTS_PATH,
        '?lastEventId=0&limit=3',
        headers,
      );
      expect(directUsedExpress).toBe(false);
      expect(direct.status).toBe(200);
      expect(direct.headers).toEqual(viaExpress.headers);
      expect(direct.body.equals(plain.body)).toBe(true);
      expect(viaExpress.body.equals(plain.body)).toBe(true);
    }
  });

  it('HEAD and other methods stay 404 as express answers them', async () => {
    for (const method of ['HEAD', 'POST', 'DELETE']) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: s.address.port,
            path: `${EVENTS_PATH}?lastEventId=0`,
            method,
            headers: auth(),
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(404);
    }
  });
});

describe('POST /api/message', () => {
  it('answers a durable message with the stored event, as JSON.stringify would write it', async () => {
    const s = await startSim();
    const res = await fetch(`${s.base}/api/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(NON_ASCII),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    const stored = s.probe.store.latest(['RaceDayTrot']) as StoredEvent;
    expect(text).toBe(JSON.stringify({ status: 'success', data: { delivery: 'durable', event: stored } }));
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text, 'utf8'));
  });
});

describe('held polls on both paths', () => {
  it.each([
    ['direct', EVENTS_PATH],
    ['express', `${EVENTS_PATH}/`],
  ])(
    '%s: a held poll gets the same page as an immediate read, then nothing is left held',
    async (_name, path) => {
      const s = await startSim({ longPollTimeoutMs: 10_000 });
      const held = rawGet(s, `${path}?lastEventId=0`, auth());
      await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
      s.probe.publish(NON_ASCII);
      const res = await held;
      expect(res.status).toBe(200);
      const now = await rawGet(s, `${EVENTS_PATH}?lastEventId=0`, auth());
      expect(res.headers).toEqual(now.headers);
      expect(res.body.equals(now.body)).toBe(true);
      expect(s.probe.polls.size).toBe(0);
    },
  );

  it.each([
    ['direct', EVENTS_PATH],
    ['express', `${EVENTS_PATH}/`],
  ])('%s: a poll whose client goes away is dropped from the hub', async (_name, path) => {
    const s = await startSim({ longPollTimeoutMs: 10_000 });
    const req = http.get({
      host: '127.0.0.1',
      port: s.address.port,
      path: `${path}?lastEventId=0`,
      headers: auth(),
    });
    req.on('error', () => undefined);
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
    req.destroy();
    await waitFor(() => s.probe.polls.size === 0, 'the poll to be dropped');
    // The next publish finds no stale waiter to answer.
    expect(s.probe.publish(event('RaceDayTrot')).delivery).toBe('durable');
  });

  it.each([
    ['direct', EVENTS_PATH],
    ['express', `${EVENTS_PATH}/`],
  ])('%s: the timeout answers 204 with an empty body', async (_name, path) => {
    const s = await startSim({ longPollTimeoutMs: 150 });
    const res = await rawGet(s, `${path}?lastEventId=0`, auth());
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
  });
});
