import { ChannelCatalog, SimError, UserTable, type User } from '@racedata/core';
import { LEGACY_CHANNELS } from '@racedata/legacy-sim';
import { JSON_CHANNELS, JSON_DESCRIPTION, JSON_USERS, jsonChannelCatalog } from '../src/description';

describe('built-in catalog (README, Users and channels)', () => {
  test('the JSON simulator knows 8 durable and 8 transient channels', () => {
    const c = jsonChannelCatalog();
    expect(c.names('durable')).toEqual([
      'RaceDayTrot',
      'RaceDayGallop',
      'StartListTrot',
      'StartListGallop',
      'ResultTrot',
      'ResultGallop',
      'ScratchingsTrot',
      'ScratchingsGallop',
    ]);
    expect(c.names('transient')).toEqual([
      'TimeToStartTrot',
      'TimeToStartGallop',
      'TimeToDefTrot',
      'SplitTimesTrot',
      'SplitTimesGallop',
      'PrelDisqualifiedHorsesTrot',
      'Last500MetersTrot',
      'Last500MetersGallop',
    ]);
    expect(c.toJSON()).toEqual({
      durable: [...JSON_CHANNELS.durable],
      transient: [...JSON_CHANNELS.transient],
    });
  });

  test('each call builds an independent catalog', () => {
    expect(jsonChannelCatalog()).not.toBe(jsonChannelCatalog());
  });
});

describe('built-in users (README, Users and channels)', () => {
  test('testuser sees the mostly-trot set, alluser sees every channel', () => {
    const table = UserTable.fromJSON(JSON_USERS, jsonChannelCatalog());
    const testuser = table.authenticate('testuser', 'testpassword') as User;
    expect(testuser.token).toBe('dGVzdHVzZXI=');
    expect([...testuser.channels].sort()).toEqual(
      [
        'RaceDayTrot',
        'StartListTrot',
        'ResultTrot',
        'RaceDayGallop',
        'Last500MetersTrot',
        'TimeToStartTrot',
        'SplitTimesTrot',
      ].sort(),
    );
    const alluser = table.authenticate('alluser', 'allpassword') as User;
    expect(alluser.token).toBe('YWxsdXNlcg==');
    expect([...alluser.channels].sort()).toEqual(jsonChannelCatalog().names().sort());
    expect(alluser.channels.size).toBe(16);
    expect(table.byToken('YWxsdXNlcg==')).toBe(alluser);
  });

  test('the fixed tokens are base64 of the keys (as the vendor sample)', () => {
    for (const spec of JSON_USERS) {
      expect(Buffer.from(spec.token, 'base64').toString('utf8')).toBe(spec.key);
    }
  });

  test('JSON users do not validate against the legacy catalog (channel names differ)', () => {
    expect(() =>
      UserTable.fromJSON(JSON_USERS, ChannelCatalog.fromJSON(LEGACY_CHANNELS), 'built-in'),
    ).toThrow(SimError);
  });
});

describe('the description', () => {
  test('declares the built-in tables the simulator starts with', () => {
    expect(JSON_DESCRIPTION.users).toBe(JSON_USERS);
    expect(JSON_DESCRIPTION.channels).toBe(JSON_CHANNELS);
  });

  test('names each transport once, with one session transport (connections/close and drop rules)', () => {
    const names = JSON_DESCRIPTION.transports.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(JSON_DESCRIPTION.transports.filter((t) => t.kind === 'session').map((t) => t.name)).toEqual([
      'event-stream',
    ]);
  });
});
