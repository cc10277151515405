import {
  EDGE_CASE_IDS,
  generateDay,
  isSimErrorOf,
  parseDateOption,
  parseEdgeCasesOption,
  parseMeetingsOption,
  parseSeedOption,
  parseSpeedOption,
  parseStartAtOption,
} from './option-helpers';

const refused = (call: () => unknown, code: string, text: RegExp) => {
  let error: unknown;
  try {
    call();
  } catch (err) {
    error = err;
  }
  expect(isSimErrorOf(error, code)).toBe(true);
  expect((error as Error).message).toMatch(text);
};

describe('race-day options', () => {
  it('take a date, today, a seed, meetings, edge cases, a speed and a start', () => {
    expect(parseDateOption('today', '2026-06-01')).toBe('2026-06-01');
    expect(parseDateOption('2024-02-29', 'x')).toBe('2024-02-29');
    expect(parseSeedOption('42')).toBe(42);
    expect(parseMeetingsOption('trot:2,gallop:1')).toEqual({ trot: 2, gallop: 1 });
    expect(parseMeetingsOption({ gallop: 1 })).toEqual({ trot: 0, gallop: 1 });
    expect(parseMeetingsOption('auto')).toBe('auto');
    expect(parseEdgeCasesOption('dead-heat@901:3, late-scratching')).toEqual({
      mode: 'list',
      items: [{ id: 'dead-heat', trackId: 901, raceNr: 3 }, { id: 'late-scratching' }],
    });
    expect(parseEdgeCasesOption(['none'.replace('none', 'demotion@905')])).toEqual({
      mode: 'list',
      items: [{ id: 'demotion', trackId: 905 }],
    });
    expect(parseSpeedOption('0.5')).toBe(0.5);
    expect(parseSpeedOption(3600)).toBe(3600);
    expect(parseStartAtOption('14:30')).toEqual({ kind: 'clock', minutes: 870 });
  });

  it('refuse an impossible date, naming the option', () => {
    refused(
      () => parseDateOption('2026-02-30', 'x', 'RACE_DAY'),
      'RACE_DAY_INVALID',
      /^RACE_DAY: .*2026-02-30/,
    );
    refused(() => parseDateOption('tomorrow', 'x'), 'RACE_DAY_INVALID', /today or a real date/);
  });

  it('refuse an unknown edge case, listing the known ones', () => {
    refused(
      () => parseEdgeCasesOption('dead-heat,photo-fnish'),
      'RACE_DAY_INVALID',
      /unknown edge case "photo-fnish"/,
    );
    refused(() => parseEdgeCasesOption('x'), 'RACE_DAY_INVALID', new RegExp(EDGE_CASE_IDS.join(', ')));
    refused(() => parseEdgeCasesOption('dead-heat@x'), 'RACE_DAY_INVALID', /id@trackId:raceNr/);
    refused(() => parseEdgeCasesOption(42), 'RACE_DAY_INVALID', /a list of edge-case ids/);
  });

  it('refuse meetings over the caps or none at all', () => {
    refused(
      () => parseMeetingsOption('trot:5'),
      'RACE_DAY_INVALID',
      /trot meetings must be a whole number from 0 to 4/,
    );
    refused(() => parseMeetingsOption('trot:2,gallop:2'), 'RACE_DAY_INVALID', /gallop meetings .* 0 to 1/);
    refused(() => parseMeetingsOption('trot:0,gallop:0'), 'RACE_DAY_INVALID', /at least one meeting/);
    refused(() => parseMeetingsOption('trot:1,trot:2'), 'RACE_DAY_INVALID', /trot:N,gallop:N/);
    refused(
      () => parseMeetingsOption({ trot: 1, harness: 2 }),
      'RACE_DAY_INVALID',
      /unknown field "harness"/,
    );
  });

  it('refuse a speed of 0 or less or over 3600, and a bad seed or start', () => {
    for (const speed of [0, -1, 3601, 'fast', Number.NaN])
      refused(() => parseSpeedOption(speed), 'RACE_DAY_INVALID', /above 0 and at most 3600/);
    refused(() => parseSeedOption(-1), 'RACE_DAY_INVALID', /whole number/);
    refused(() => parseSeedOption(1.5), 'RACE_DAY_INVALID', /whole number/);
    refused(() => parseStartAtOption('25:00'), 'RACE_DAY_INVALID', /HH:MM/);
  });

  it('refuse an edge case placed at a race the day does not have, naming what exists', () => {
    const day = (edgeCases: string) => () =>
      generateDay({
        date: '2026-05-13',
        seed: 1,
        meetings: { trot: 1, gallop: 0 },
        edgeCases: parseEdgeCasesOption(edgeCases),
      });
    const plan = day('none')();
    const { trackId, races } = { trackId: plan.meetings[0]!.trackId, races: plan.meetings[0]!.races.length };
    refused(
      day(`dead-heat@${trackId}:${races + 1}`),
      'RACE_DAY_NO_SUCH_RACE',
      new RegExp(`has no race ${races + 1}; its races are 1-${races}`),
    );
    refused(
      day('dead-heat@999:1'),
      'RACE_DAY_NO_SUCH_RACE',
      new RegExp(`no meeting at track 999.*${trackId}`),
    );
    refused(day(`surface-change@${trackId}:1`), 'RACE_DAY_INVALID', /gallop races only/);
    refused(day(`abandoned-meeting@${trackId}:${races}`), 'RACE_DAY_INVALID', /is the last/);
    refused(day('all'), 'RACE_DAY_INVALID', /trot:3,gallop:1/);
  });
});
