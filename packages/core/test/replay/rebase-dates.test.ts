import {
  firstRecordedDate,
  localDate,
  rebaseDates,
  shiftDatesInText,
  type RecordedJsonMessage,
  type RecordedLegacyMessage,
} from '../../src/replay';

const DAY = 86_400_000;

const legacyMsg = (xml: string, at = Date.UTC(2024, 4, 11, 10)): RecordedLegacyMessage => ({
  kind: 'legacy',
  at,
  delivery: 'durable',
  channel: 'RaceDay',
  payloadKey: 'RaceDay_2024-05-11_901',
  xml,
  source: 'a.jsonl:1',
});

const jsonMsg = (date: string, payload: Record<string, unknown> = {}): RecordedJsonMessage => ({
  kind: 'json',
  at: Date.parse(`${date}T10:00:00Z`),
  delivery: 'durable',
  message: { channel: 'RaceDayTrot', date, trackId: 901, payload },
  source: 'a.jsonl:1',
});

describe('replay: rebaseDates', () => {
  it('shifts JSON dates, payload dates and at by whole days so the first race date is today', () => {
    const messages = [
      jsonMsg('2024-05-11', {
        startTime: '2024-05-11T14:30:00+02:00',
        races: [{ date: '2024-05-12' }],
        n: 20240511,
        id: 'x12024-05-119',
      }),
      jsonMsg('2024-05-12'),
    ];
    const rebased = rebaseDates(messages, '2026-03-01');
    expect(rebased[0]!.message).toEqual({
      channel: 'RaceDayTrot',
      date: '2026-03-01',
      trackId: 901,
      payload: {
        startTime: '2026-03-01T14:30:00+02:00',
        races: [{ date: '2026-03-02' }],
        n: 20240511,
        id: 'x12024-05-119',
      },
    });
    expect(rebased[1]!.message.date).toBe('2026-03-02');
    const days = (Date.UTC(2026, 2, 1) - Date.UTC(2024, 4, 11)) / DAY;
    expect(rebased[0]!.at - messages[0]!.at).toBe(days * DAY);
    expect(messages[0]!.message.date).toBe('2024-05-11');
  });

  it('shifts dates inside legacy XML and payload keys, taking the race date from the date attribute', () => {
    const xml =
      '<Result date="2024-05-11" foaled="2019-04-01"><Race start="2024-05-11T14:30:00+02:00"/></Result>';
    const [rebased] = rebaseDates([legacyMsg(xml)], '2024-05-13');
    expect(rebased!.xml).toBe(
      '<Result date="2024-05-13" foaled="2019-04-03"><Race start="2024-05-13T14:30:00+02:00"/></Result>',
    );
    expect(rebased!.payloadKey).toBe('RaceDay_2024-05-13_901');
  });

  it('falls back to the first date in the XML, then to the day of at', () => {
    expect(firstRecordedDate([legacyMsg('<A when="2024-05-09T10:00:00Z"/>')])).toBe('2024-05-09');
    expect(firstRecordedDate([legacyMsg('<A/>', Date.UTC(2024, 0, 2, 3))])).toBe('2024-01-02');
    expect(firstRecordedDate([])).toBeUndefined();
  });

  it('moves backwards too, and leaves a recording already on today alone', () => {
    const messages = [jsonMsg('2024-03-01')];
    expect(rebaseDates(messages, '2024-02-28')[0]!.message.date).toBe('2024-02-28');
    expect(rebaseDates(messages, '2024-03-01')[0]).toBe(messages[0]);
  });

  it('refuses a bad today', () => {
    expect(() => rebaseDates([], '2024-13-01')).toThrow(/YYYY-MM-DD/);
  });

  it('ignores digit runs that are not real dates', () => {
    expect(shiftDatesInText('2024-02-30 and 2024-02-28', 1)).toBe('2024-02-30 and 2024-02-29');
  });

  it('gives the local calendar date', () => {
    const now = new Date(2026, 6, 4, 23, 59).getTime();
    expect(localDate(now)).toBe('2026-07-04');
  });
});
