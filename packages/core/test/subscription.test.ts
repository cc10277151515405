import { audience, subscribes, type User } from '@racedata/core';

const user = (key: string, channels: string[]): User => ({
  name: key,
  key,
  secret: `${key}-secret`,
  token: `${key}-token`,
  channels: new Set(channels),
});

const trot = user('trot', ['RaceDayTrot', 'ResultTrot']);
const gallop = user('gallop', ['RaceDayGallop']);
const nobody = user('nobody', []);

describe('subscribes', () => {
  test('true only for channels in the user subscription', () => {
    expect(subscribes(trot, 'RaceDayTrot')).toBe(true);
    expect(subscribes(trot, 'ResultTrot')).toBe(true);
    expect(subscribes(trot, 'RaceDayGallop')).toBe(false);
    expect(subscribes(trot, 'racedaytrot')).toBe(false);
    expect(subscribes(trot, '')).toBe(false);
  });

  test('null (the legacy "id" address) reaches every user, even one with no channels', () => {
    expect(subscribes(trot, null)).toBe(true);
    expect(subscribes(nobody, null)).toBe(true);
  });
});

describe('audience', () => {
  const users = [trot, gallop, nobody];

  test('picks exactly the subscribers of a channel, keeping order', () => {
    expect(audience(users, 'RaceDayTrot')).toEqual([trot]);
    expect(audience(users, 'RaceDayGallop')).toEqual([gallop]);
    expect(
      audience([gallop, trot, user('both', ['RaceDayTrot', 'RaceDayGallop'])], 'RaceDayGallop').map(
        (u) => u.key,
      ),
    ).toEqual(['gallop', 'both']);
  });

  test('is empty for a channel nobody has', () => {
    expect(audience(users, 'Unknown')).toEqual([]);
    expect(audience([], 'RaceDayTrot')).toEqual([]);
  });

  test('null addresses everybody', () => {
    expect(audience(users, null)).toEqual(users);
  });

  test('returns a new array, never the input', () => {
    expect(audience(users, null)).not.toBe(users);
  });
});
