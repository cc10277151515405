import http from 'node:http';
import { TOKENS } from '@racedata/test-support';
import { EVENTS_PATH, FILTERED_PATH, closeAll, event, startSim, waitFor, type Started } from './helpers';

// A long poll answered 304 (or 206, 412) leaves the client without its events for good, so both
// read endpoints ignore conditional and range headers: always 200 with the full page, or 204.
// Raw node:http requests, because fetch adds `cache-control: no-cache`, which hides a 304.

afterEach(closeAll);

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function rawGet(s: Started, path: string, headers: http.OutgoingHttpHeaders): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: s.address.port,
        path,
        headers: { authorization: `Bearer ${TOKENS.alluser}`, ...headers },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
  });
}

const CONDITIONAL: Array<[string, http.OutgoingHttpHeaders]> = [
  ['If-None-Match: *', { 'if-none-match': '*' }],
  ['If-None-Match with an entity tag', { 'if-none-match': '"abc", W/"def"' }],
  ['If-Modified-Since in the future', { 'if-modified-since': new Date(Date.now() + 864e5).toUTCString() }],
  ['If-Match that cannot match', { 'if-match': '"nope"' }],
  ['If-Unmodified-Since long ago', { 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }],
  ['Range', { range: 'bytes=0-10' }],
  ['If-Range with Range', { range: 'bytes=0-10', 'if-range': '"abc"' }],
];

// The direct read path answers the exact paths; express answers the trailing-slash spellings.
const PATHS = [
  `${EVENTS_PATH}?lastEventId=0`,
  `${EVENTS_PATH}/?lastEventId=0`,
  `${FILTERED_PATH}?lastEventId=0`,
  `${FILTERED_PATH}/?lastEventId=0`,
];

describe('conditional and range headers on the read endpoints', () => {
  let s: Started;

  beforeEach(async () => {
    s = await startSim();
    for (let i = 0; i < 3; i++) s.probe.publish(event('RaceDayTrot', { payload: { i } }));
  });

  test.each(CONDITIONAL)('%s: 200 with the full page on every path', async (_name, headers) => {
    for (const path of PATHS) {
      const plain = await rawGet(s, path, {});
      expect(plain.status).toBe(200);
      expect(plain.headers.etag).toBeUndefined();
      const res = await rawGet(s, path, headers);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body).toBe(plain.body);
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers['content-range']).toBeUndefined();
      expect((JSON.parse(res.body) as { data: { numberOfEvents: number } }).data.numberOfEvents).toBe(3);
    }
  });

  it('a conditional request on a held long poll gets the new event as a full 200', async () => {
    const held = rawGet(s, `${EVENTS_PATH}?lastEventId=3`, { 'if-none-match': '*', range: 'bytes=0-1' });
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held');
    s.probe.publish(event('RaceDayTrot', { payload: { late: true } }));
    const res = await held;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ data: { numberOfEvents: 1, events: [{ eventId: 4 }] } });
  });

  it('nothing to answer is still 204, not 304', async () => {
    const res = await rawGet(s, `${FILTERED_PATH}?lastEventId=3`, { 'if-none-match': '*' });
    expect(res.status).toBe(204);
  });
});
