import fc from 'fast-check';
import { jsonChannelCatalog } from '../../src/description';
import { parseMessageInput } from '../../src/message-input';
import { CanonicalLines } from '../../src/seed/canonical-line';
import { eventJsonHead, prepareEvent } from '../../src/store/stored-json';
import { StagedEvents } from '../../src/store/staged-events';

const catalog = jsonChannelCatalog();
const lines = new CanonicalLines(catalog);

interface Staged {
  readonly json: string;
  readonly row: readonly (string | number)[];
}

function first(staged: StagedEvents): Staged {
  const start = staged.start(0);
  return {
    json: staged.chunk(0).toString('utf8', start, start + staged.byteLength(0)),
    row: [
      staged.channelNames[staged.channel[0] as number] as string,
      staged.day[0] as number,
      staged.trackId[0] as number,
      staged.raceNr[0] as number,
      staged.startNr[0] as number,
    ],
  };
}

/** The ordinary path: parse, check, serialise the payload again; undefined where it refuses. */
function ordinary(line: string): Staged | undefined {
  try {
    const input = parseMessageInput(JSON.parse(line), catalog);
    if (catalog.kindOf(input.channel) !== 'durable') return undefined;
    const staged = new StagedEvents();
    staged.add(prepareEvent(input));
    return first(staged);
  } catch {
    return undefined;
  }
}

function fast(line: string): Staged | undefined {
  const staged = new StagedEvents();
  return lines.stage(Buffer.from(line, 'utf8'), staged) ? first(staged) : undefined;
}

const id = fc.oneof(
  fc.constant(undefined),
  fc.nat({ max: 5000 }),
  fc.constantFrom(null, -1, 1.5, 2 ** 53, '7', 0),
);
const message = fc.record({
  channel: fc.constantFrom(...catalog.names(), 'Nope', ''),
  date: fc.oneof(
    fc
      .date({ min: new Date('1990-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    fc.constantFrom('2026-02-30', '2026-1-1', 'today'),
  ),
  trackId: id,
  raceNr: id,
  startNr: id,
  payload: fc.oneof(fc.object(), fc.jsonValue()),
});

describe('CanonicalLines', () => {
  test('stages exactly what the ordinary path stages, or leaves the line to it (property)', () => {
    fc.assert(
      fc.property(message, fc.nat(5), (m, variant) => {
        const plain = JSON.stringify(m);
        const line = [
          plain,
          plain,
          JSON.stringify(Object.assign({ payload: m.payload }, m)),
          JSON.stringify({ ...m, extra: 1 }),
          `${plain} `,
          JSON.stringify(m, null, 1),
        ][variant] as string;
        const staged = fast(line);
        if (staged !== undefined) expect(staged).toEqual(ordinary(line));
      }),
      { numRuns: 4000 },
    );
  });

  test('takes every line JSON.stringify writes for a good durable event with a plain payload', () => {
    const good = fc.record({
      channel: fc.constantFrom(...catalog.names('durable')),
      date: fc.constantFrom('2026-03-14', '2024-02-29', '1999-12-31'),
      trackId: fc.option(fc.nat({ max: 10 ** 15 - 1 }), { nil: undefined }),
      raceNr: fc.option(fc.nat({ max: 20 }), { nil: undefined }),
      startNr: fc.option(fc.nat({ max: 20 }), { nil: undefined }),
      payload: fc.dictionary(
        fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/),
        fc.oneof(
          fc.integer(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.string(),
          fc.boolean(),
        ),
      ),
    });
    fc.assert(
      fc.property(good, (m) => {
        const line = JSON.stringify(m);
        if (/\\u/.test(line)) return;
        expect(fast(line)).toEqual(ordinary(line));
      }),
      { numRuns: 2000 },
    );
  });

  test("takes the store's own JSON of an event as it is: both read one key order", () => {
    const ids = fc.option(fc.nat({ max: 5000 }), { nil: undefined });
    const event = fc.record({
      channel: fc.constantFrom(...catalog.names('durable')),
      date: fc.constant('2026-03-14'),
      trackId: ids,
      raceNr: ids,
      startNr: ids,
      payload: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer()),
    });
    fc.assert(
      fc.property(event, (m) => {
        const head = eventJsonHead(prepareEvent(m));
        const staged = fast(`${head}}`);
        expect(staged?.json).toBe(head);
        expect(staged).toEqual(ordinary(`${head}}`));
      }),
      { numRuns: 500 },
    );
  });

  test('leaves bad lines to the ordinary path, which names what is wrong', () => {
    const base = { channel: 'RaceDayTrot', date: '2026-03-14', payload: { a: 1 } };
    for (const bad of [
      { ...base, channel: 'TimeToStartTrot' },
      { ...base, channel: 'Nope' },
      { ...base, date: '2026-02-30' },
      { ...base, trackId: -1 },
      { ...base, raceNr: 1.5 },
      { ...base, payload: [1] },
      { ...base, payload: 'text' },
    ]) {
      expect(fast(JSON.stringify(bad))).toBeUndefined();
    }
    expect(
      fast(`{"channel":"RaceDayTrot","date":"2026-03-14","payload":${'['.repeat(64)}${']'.repeat(64)}}`),
    ).toBeUndefined();
    expect(
      fast(
        `{"channel":"RaceDayTrot","date":"2026-03-14","payload":{"a":${'['.repeat(62)}${']'.repeat(62)}}}`,
      ),
    ).toBeDefined();
  });
});
