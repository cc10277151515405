import { ChannelCatalog, SimError } from '@racedata/core';

function channelsError(fn: () => unknown): SimError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SimError);
    expect((err as SimError).code).toBe('CHANNELS_INVALID');
    return err as SimError;
  }
  throw new Error('expected CHANNELS_INVALID, nothing was thrown');
}

describe('ChannelCatalog', () => {
  const catalog = new ChannelCatalog([
    { name: 'RaceDay', kind: 'durable' },
    { name: 'Result', kind: 'durable' },
    { name: 'TimeToStart', kind: 'transient' },
  ]);

  test('has / kindOf answer per channel, case-sensitively', () => {
    expect(catalog.has('RaceDay')).toBe(true);
    expect(catalog.has('raceday')).toBe(false);
    expect(catalog.has('Nope')).toBe(false);
    expect(catalog.kindOf('Result')).toBe('durable');
    expect(catalog.kindOf('TimeToStart')).toBe('transient');
    expect(catalog.kindOf('Nope')).toBeUndefined();
  });

  test('names() lists every channel in definition order; names(kind) filters', () => {
    expect(catalog.names()).toEqual(['RaceDay', 'Result', 'TimeToStart']);
    expect(catalog.names('durable')).toEqual(['RaceDay', 'Result']);
    expect(catalog.names('transient')).toEqual(['TimeToStart']);
  });

  test('list() returns frozen definitions in a fresh array', () => {
    const list = catalog.list();
    expect(list).toEqual([
      { name: 'RaceDay', kind: 'durable' },
      { name: 'Result', kind: 'durable' },
      { name: 'TimeToStart', kind: 'transient' },
    ]);
    expect(list.every((d) => Object.isFrozen(d))).toBe(true);
    list.pop();
    expect(catalog.list()).toHaveLength(3);
  });

  test('toJSON gives the CHANNELS_FILE shape and round-trips through fromJSON', () => {
    expect(catalog.toJSON()).toEqual({ durable: ['RaceDay', 'Result'], transient: ['TimeToStart'] });
    const again = ChannelCatalog.fromJSON(JSON.parse(JSON.stringify(catalog)));
    expect(again.list()).toEqual(catalog.list());
  });

  test('the constructor refuses a name listed twice', () => {
    const err = channelsError(
      () =>
        new ChannelCatalog([
          { name: 'A', kind: 'durable' },
          { name: 'A', kind: 'transient' },
        ]),
    );
    expect(err.message).toContain('A');
    expect(err.message).toMatch(/twice/);
  });

  test('definitions are copied: changing the input later changes nothing', () => {
    const defs = [{ name: 'A', kind: 'durable' as const }];
    const c = new ChannelCatalog(defs);
    (defs[0] as { kind: string }).kind = 'transient';
    expect(c.kindOf('A')).toBe('durable');
  });
});

describe('ChannelCatalog.fromJSON', () => {
  test('reads {"durable": [...], "transient": [...]}', () => {
    const c = ChannelCatalog.fromJSON({
      durable: ['RaceDayTrot', 'Result_Gallop'],
      transient: ['Time.To-Start'],
    });
    expect(c.names('durable')).toEqual(['RaceDayTrot', 'Result_Gallop']);
    expect(c.names('transient')).toEqual(['Time.To-Start']);
  });

  test('either kind may be missing (or null) as long as some channel is defined', () => {
    expect(ChannelCatalog.fromJSON({ durable: ['A'] }).names()).toEqual(['A']);
    expect(ChannelCatalog.fromJSON({ transient: ['B'] }).kindOf('B')).toBe('transient');
    expect(ChannelCatalog.fromJSON({ durable: ['A'], transient: null }).names()).toEqual(['A']);
  });

  test('a 100-character name is allowed, 101 is not', () => {
    expect(ChannelCatalog.fromJSON({ durable: ['x'.repeat(100)] }).has('x'.repeat(100))).toBe(true);
    channelsError(() => ChannelCatalog.fromJSON({ durable: ['x'.repeat(101)] }));
  });

  test.each([
    ['null', null],
    ['a string', 'RaceDay'],
    ['a number', 3],
    ['an array', ['RaceDay']],
    ['undefined', undefined],
  ])('refuses %s at the top level, naming the source and the expected shape', (_what, value) => {
    const err = channelsError(() => ChannelCatalog.fromJSON(value, '/etc/channels.json'));
    expect(err.message.startsWith('/etc/channels.json: ')).toBe(true);
    expect(err.message).toMatch(/durable/);
  });

  test.each([
    ['durable', { durable: 'RaceDay' }],
    ['durable', { durable: { RaceDay: true } }],
    ['transient', { durable: ['A'], transient: 'TimeToStart' }],
    ['transient', { durable: ['A'], transient: 5 }],
  ])('refuses a non-array "%s", naming the field', (field, value) => {
    const err = channelsError(() => ChannelCatalog.fromJSON(value, 'channels.json'));
    expect(err.message).toContain('channels.json: ');
    expect(err.message).toContain(`"${field}"`);
    expect(err.message).toMatch(/array/);
  });

  test.each([
    ['empty', ''],
    ['with a space', 'Race Day'],
    ['with a slash', 'Race/Day'],
    ['the wildcard', '*'],
    ['non-ASCII', 'Travlöp'],
    ['a number', 7],
    ['null', null],
    ['an object', { name: 'A' }],
  ])('refuses a channel name that is %s, naming the field and the value', (_what, name) => {
    const err = channelsError(() =>
      ChannelCatalog.fromJSON({ durable: ['Ok'], transient: [name] }, 'c.json'),
    );
    expect(err.message.startsWith('c.json: ')).toBe(true);
    expect(err.message).toContain('"transient"');
    expect(err.message).toContain(JSON.stringify(name));
  });

  test('refuses unknown fields, naming them (catches typos such as "durabel")', () => {
    const err = channelsError(() =>
      ChannelCatalog.fromJSON({ durabel: ['A'], transient: ['B'], extra: 1 }, 'c.json'),
    );
    expect(err.message).toContain('c.json: ');
    expect(err.message).toContain('durabel');
    expect(err.message).toContain('extra');
  });

  test('refuses a catalog without channels', () => {
    for (const value of [{}, { durable: [], transient: [] }]) {
      const err = channelsError(() => ChannelCatalog.fromJSON(value, 'empty.json'));
      expect(err.message).toBe('empty.json: no channels defined');
    }
  });

  test('refuses a name listed twice, within a kind or across kinds, naming source and channel', () => {
    const within = channelsError(() => ChannelCatalog.fromJSON({ durable: ['A', 'B', 'A'] }, 'dup.json'));
    expect(within.message).toMatch(/^dup\.json: .*\bA\b.*twice/);
    const across = channelsError(() =>
      ChannelCatalog.fromJSON({ durable: ['A'], transient: ['A'] }, 'dup.json'),
    );
    expect(across.message).toMatch(/^dup\.json: .*\bA\b.*twice/);
  });

  test('the default source name is "channels"', () => {
    expect(channelsError(() => ChannelCatalog.fromJSON(null)).message.startsWith('channels: ')).toBe(true);
  });

  test('errors carry status 500 (a start-up problem, not a client error)', () => {
    expect(channelsError(() => ChannelCatalog.fromJSON({})).status).toBe(500);
  });
});
