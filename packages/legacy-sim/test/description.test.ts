import { UserTable, type User } from '@racedata/core';
import { LEGACY_CHANNELS, LEGACY_DESCRIPTION, LEGACY_USERS, legacyChannelCatalog } from '../src/description';

describe('built-in catalog and users (README, Users and channels)', () => {
  test('the vendor track-signal channels are transient', () => {
    const c = legacyChannelCatalog();
    expect(c.names('transient')).toEqual([
      'TimeToStart',
      'TimeToDef',
      'SplitTimes',
      'PrelDisqualifiedHorses',
      'Last500Meters',
    ]);
    expect(c.names('durable')).toEqual([...LEGACY_CHANNELS.durable]);
  });

  test('one testuser subscribed to every legacy channel', () => {
    const table = UserTable.fromJSON(LEGACY_USERS, legacyChannelCatalog());
    expect(table.users).toHaveLength(1);
    const testuser = table.byToken('dGVzdHVzZXI=') as User;
    expect(testuser.key).toBe('testuser');
    expect(table.authenticate('testuser', 'testpassword')).toBe(testuser);
    expect([...testuser.channels].sort()).toEqual(legacyChannelCatalog().names().sort());
    expect(Buffer.from(testuser.token, 'base64').toString('utf8')).toBe(testuser.key);
  });
});

describe('the description', () => {
  test('declares the built-in tables the simulator starts with', () => {
    expect(LEGACY_DESCRIPTION.users).toBe(LEGACY_USERS);
    expect(LEGACY_DESCRIPTION.channels).toBe(LEGACY_CHANNELS);
  });

  test('STOMP is the one session transport, on both of its upgrade paths', () => {
    const sessions = LEGACY_DESCRIPTION.transports.filter((t) => t.kind === 'session');
    expect(sessions.map((t) => [t.name, t.paths])).toEqual([
      ['stomp', ['/customerapi/channels/connect', '/api/v1/channels/connect']],
    ]);
  });
});
