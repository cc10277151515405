import { ChannelCatalog, checkCredentials, SimError, UserTable } from '@racedata/core';
import { SAMPLE_CHANNELS, SAMPLE_USERS } from './sample-description';

const users = UserTable.fromJSON(SAMPLE_USERS, ChannelCatalog.fromJSON(SAMPLE_CHANNELS));

function fails(body: unknown): SimError {
  try {
    checkCredentials(body, users);
  } catch (err) {
    expect(err).toBeInstanceOf(SimError);
    return err as SimError;
  }
  throw new Error('expected a SimError, nothing was thrown');
}

describe('checkCredentials', () => {
  test('returns the user for a right pair', () => {
    expect(checkCredentials({ key: 'testuser', secret: 'testpassword' }, users).key).toBe('testuser');
    expect(checkCredentials({ key: 'alluser', secret: 'allpassword', extra: true }, users).key).toBe(
      'alluser',
    );
  });

  test.each([
    ['null', null],
    ['a string', 'testuser:testpassword'],
    ['an array', ['testuser', 'testpassword']],
    ['a number', 1],
    ['undefined', undefined],
  ])('a body that is %s is a 400 VALIDATION_FAILED', (_what, body) => {
    const err = fails(body);
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(err.message).toMatch(/object/);
  });

  test.each([
    [{ secret: 'testpassword' }, 'key is required'],
    [{ key: 'testuser' }, 'secret is required'],
    [{}, 'key is required'],
    [{ key: 5, secret: 'x' }, 'key must be a string'],
    [{ key: 'testuser', secret: null }, 'secret must be a string'],
    [{ key: 'testuser', secret: ['testpassword'] }, 'secret must be a string'],
    [{ key: '', secret: 'x' }, 'key must not be blank'],
    [{ key: 'testuser', secret: '   ' }, 'secret must not be blank'],
  ])('%j is a 400 saying "%s"', (body, message) => {
    expect(fails(body)).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, message });
  });

  test.each([
    { key: 'testuser', secret: 'wrong' },
    { key: 'nobody', secret: 'testpassword' },
    { key: 'testuser', secret: 'allpassword' },
    { key: 'TESTUSER', secret: 'testpassword' },
    { key: 'testuser', secret: 'testpassword ' },
  ])('a wrong pair %j is a 401 CREDENTIALS_INVALID', (body) => {
    expect(fails(body)).toMatchObject({ code: 'CREDENTIALS_INVALID', status: 401 });
  });
});
