/**
 * The built-in users as README.md "Users and channels" lists them: what a black-box test needs
 * to authenticate (key and secret) or to skip authenticating (the fixed token). Both simulators
 * have testuser with the same credentials; only the JSON simulator has alluser.
 */
export interface DefaultUser {
  readonly key: string;
  readonly secret: string;
  readonly token: string;
}

const testuser = { key: 'testuser', secret: 'testpassword', token: 'dGVzdHVzZXI=' } as const;
const alluser = { key: 'alluser', secret: 'allpassword', token: 'YWxsdXNlcg==' } as const;

/** Each simulator's built-in users, by key. */
export const USERS = {
  json: { testuser, alluser },
  legacy: { testuser },
} as const satisfies Record<'json' | 'legacy', Record<string, DefaultUser>>;

/** The built-in users' fixed tokens: testuser on both simulators, alluser on JSON. */
export const TOKENS = { testuser: testuser.token, alluser: alluser.token } as const;

/** The channels testuser sees on the JSON simulator (README, "Users and channels"). */
export const JSON_TESTUSER_CHANNELS: ReadonlySet<string> = new Set([
  'RaceDayTrot',
  'StartListTrot',
  'ResultTrot',
  'RaceDayGallop',
  'Last500MetersTrot',
  'TimeToStartTrot',
  'SplitTimesTrot',
]);
