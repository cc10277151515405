import { USERS, closeAll, started } from './support';

afterEach(closeAll);

// Tests across the repository authenticate with test-support's USERS instead of asking the
// simulator: this keeps that one copy true to what each simulator really has built in.
test('test-support’s default users are each simulator’s built-in users, key, secret and token', async () => {
  const { users } = await started();
  const credentials = (list: readonly { key: string; secret: string; token: string }[]) =>
    list.map(({ key, secret, token }) => ({ key, secret, token }));
  expect(credentials(users.json)).toEqual(Object.values(USERS.json));
  expect(credentials(users.legacy)).toEqual(Object.values(USERS.legacy));
});
