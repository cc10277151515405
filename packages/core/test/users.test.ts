import { ChannelCatalog, SimError, UserTable, type User } from '@racedata/core';

const catalog = ChannelCatalog.fromJSON({ durable: ['RaceDay', 'Result'], transient: ['TimeToStart'] });

function usersError(fn: () => unknown): SimError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SimError);
    expect((err as SimError).code).toBe('USERS_INVALID');
    expect((err as SimError).status).toBe(500);
    return err as SimError;
  }
  throw new Error('expected USERS_INVALID, nothing was thrown');
}

const entry = (over: Record<string, unknown> = {}) => ({
  name: 'Ann',
  key: 'ann',
  secret: 'pw',
  token: 'tok-ann',
  channels: ['RaceDay'],
  ...over,
});

const user = (key: string, token: string): User => ({
  name: key,
  key,
  secret: 's',
  token,
  channels: new Set(),
});

describe('UserTable', () => {
  const table = UserTable.fromJSON(
    [entry(), entry({ name: 'Bo', key: 'bo', secret: 'bo-pw', token: 'tok-bo', channels: '*' })],
    catalog,
  );

  test('finds users by key and by fixed token', () => {
    expect(table.byKey('ann')?.name).toBe('Ann');
    expect(table.byToken('tok-bo')?.key).toBe('bo');
    expect(table.byKey('tok-bo')).toBeUndefined();
    expect(table.byToken('ann')).toBeUndefined();
    expect(table.byKey('ANN')).toBeUndefined();
  });

  test('authenticate needs the exact key and secret', () => {
    expect(table.authenticate('ann', 'pw')?.key).toBe('ann');
    expect(table.authenticate('ann', 'PW')).toBeUndefined();
    expect(table.authenticate('ann', 'bo-pw')).toBeUndefined();
    expect(table.authenticate('nobody', 'pw')).toBeUndefined();
    expect(table.authenticate('ann', '')).toBeUndefined();
    expect(table.authenticate('', '')).toBeUndefined();
  });

  test('users keeps the table order', () => {
    expect(table.users.map((u) => u.key)).toEqual(['ann', 'bo']);
  });

  test('the constructor refuses a key or a token used twice', () => {
    expect(usersError(() => new UserTable([user('a', 't1'), user('a', 't2')])).message).toContain('a');
    expect(usersError(() => new UserTable([user('a', 't1'), user('b', 't1')])).message).toContain('token');
  });
});

describe('UserTable.fromJSON', () => {
  test('accepts a bare array or {"users": [...]}', () => {
    expect(UserTable.fromJSON([entry()], catalog).byKey('ann')).toBeDefined();
    expect(UserTable.fromJSON({ users: [entry()] }, catalog).byKey('ann')).toBeDefined();
  });

  test('builds frozen users with the listed channels as a set', () => {
    const ann = UserTable.fromJSON(
      [entry({ channels: ['RaceDay', 'TimeToStart', 'RaceDay'] })],
      catalog,
    ).byKey('ann') as User;
    expect(ann).toEqual({
      name: 'Ann',
      key: 'ann',
      secret: 'pw',
      token: 'tok-ann',
      channels: new Set(['RaceDay', 'TimeToStart']),
    });
    expect(Object.isFrozen(ann)).toBe(true);
  });

  test('"*" subscribes the user to every channel of the catalog, durable and transient', () => {
    const bo = UserTable.fromJSON([entry({ channels: '*' })], catalog).byKey('ann') as User;
    expect([...bo.channels].sort()).toEqual(['RaceDay', 'Result', 'TimeToStart']);
  });

  test('an empty channel list is allowed (a user that sees nothing)', () => {
    expect(UserTable.fromJSON([entry({ channels: [] })], catalog).byKey('ann')?.channels.size).toBe(0);
  });

  test('name defaults to the key', () => {
    const { name: _name, ...noName } = entry();
    expect(UserTable.fromJSON([noName], catalog).byKey('ann')?.name).toBe('ann');
  });

  test.each([
    ['null', null],
    ['a string', 'users'],
    ['an empty array', []],
    ['{"users": []}', { users: [] }],
    ['{"users": {}}', { users: {} }],
    ['an object without users', { people: [] }],
  ])('refuses %s, naming the source and the expected shape', (_what, value) => {
    const err = usersError(() => UserTable.fromJSON(value, catalog, '/data/users.json'));
    expect(err.message.startsWith('/data/users.json: ')).toBe(true);
    expect(err.message).toContain('users');
  });

  test.each([
    ['a string', 'ann'],
    ['null', null],
    ['a number', 1],
  ])('refuses an entry that is %s, naming its index', (_what, bad) => {
    const err = usersError(() => UserTable.fromJSON([entry(), bad], catalog, 'u.json'));
    expect(err.message).toBe('u.json: users[1] must be an object');
  });

  test.each(['key', 'secret', 'token'])(
    'refuses a missing, blank or non-string %s, naming the field',
    (field) => {
      for (const bad of [undefined, '', '   ', 42, null, ['x']]) {
        const err = usersError(() => UserTable.fromJSON([entry({ [field]: bad })], catalog, 'u.json'));
        expect(err.message).toBe(`u.json: users[0].${field} must be a non-empty string`);
      }
    },
  );

  test('refuses a non-string name', () => {
    const err = usersError(() => UserTable.fromJSON([entry({ name: 5 })], catalog, 'u.json'));
    expect(err.message).toBe('u.json: users[0].name must be a string');
  });

  test.each([
    ['missing', undefined],
    ['"all"', 'all'],
    ['a number', 3],
    ['an array with a number', ['RaceDay', 3]],
    ['an object', { RaceDay: true }],
  ])('refuses channels that are %s', (_what, channels) => {
    const err = usersError(() => UserTable.fromJSON([entry({ channels })], catalog, 'u.json'));
    expect(err.message).toBe('u.json: users[0].channels must be "*" or an array of channel names');
  });

  test('refuses unknown channels, naming every one of them', () => {
    const err = usersError(() =>
      UserTable.fromJSON(
        [entry(), entry({ key: 'b', token: 't2', channels: ['RaceDay', 'Nope', 'raceday'] })],
        catalog,
        'u.json',
      ),
    );
    expect(err.message).toMatch(/^u\.json: users\[1\]\.channels/);
    expect(err.message).toContain('Nope');
    expect(err.message).toContain('raceday');
    // The known channel is not reported (case matters: "raceday" is not "RaceDay").
    expect(err.message).not.toContain('RaceDay');
  });

  test('refuses duplicate keys and duplicate tokens, naming the source and the key', () => {
    const keys = usersError(() =>
      UserTable.fromJSON([entry(), entry({ token: 'other' })], catalog, 'dup.json'),
    );
    expect(keys.message.startsWith('dup.json: ')).toBe(true);
    expect(keys.message).toContain('ann');
    const tokens = usersError(() =>
      UserTable.fromJSON([entry(), entry({ key: 'other' })], catalog, 'dup.json'),
    );
    expect(tokens.message.startsWith('dup.json: ')).toBe(true);
    expect(tokens.message).toContain('token');
  });

  test('the default source name is "users"', () => {
    expect(usersError(() => UserTable.fromJSON(null, catalog)).message.startsWith('users: ')).toBe(true);
  });
});
