import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { JSON_CHANNELS } from '@racedata/json-sim';
import { LEGACY_CHANNELS } from '@racedata/legacy-sim';
import { TOKENS } from '../../../test-support';

/** One user of a simulator as the soak knows it: its token and what it may receive. */
export interface SoakUser {
  readonly key: string;
  readonly token: string;
  /** Undefined: every channel. */
  readonly channels: ReadonlySet<string> | undefined;
}

// The built-in catalogs, so the soak follows the simulators when a channel is added.
export const LEGACY_DURABLE = LEGACY_CHANNELS.durable;
export const LEGACY_TRANSIENT = LEGACY_CHANNELS.transient;
/** Legacy posts go to `id` (every user) or to a channel (its subscribers). */
export const LEGACY_DURABLE_TARGETS = ['id', ...LEGACY_DURABLE];
export const LEGACY_TRANSIENT_TARGETS = ['id', ...LEGACY_TRANSIENT];

export const JSON_DURABLE = JSON_CHANNELS.durable;
export const JSON_TRANSIENT = JSON_CHANNELS.transient;

/** The built-in JSON testuser's subscription (README, "Users and channels"). */
const JSON_TESTUSER = [
  'RaceDayTrot',
  'StartListTrot',
  'ResultTrot',
  'RaceDayGallop',
  'Last500MetersTrot',
  'TimeToStartTrot',
  'SplitTimesTrot',
];
const JSON_GALLOP = [
  'RaceDayGallop',
  'StartListGallop',
  'ResultGallop',
  'ScratchingsGallop',
  'TimeToStartGallop',
  'SplitTimesGallop',
  'Last500MetersGallop',
];
const JSON_OTHER_TROT = ['StartListTrot', 'ScratchingsTrot', 'TimeToDefTrot', 'PrelDisqualifiedHorsesTrot'];
const LEGACY_A = ['RaceDay', 'StartList', 'TimeToStart', 'SplitTimes'];
const LEGACY_B = ['Result', 'Scratchings', 'TimeToDef', 'Last500Meters', 'PrelDisqualifiedHorses'];

interface UserSpec {
  name: string;
  key: string;
  secret: string;
  token: string;
  channels: string[] | '*';
}

function soakUser(spec: UserSpec): SoakUser {
  return {
    key: spec.key,
    token: spec.token,
    channels: spec.channels === '*' ? undefined : new Set(spec.channels),
  };
}

/**
 * The built-in users plus generated ones with different subscriptions, so a message on a
 * channel a user does not take reaching that user shows as a foreign-channel delivery.
 */
export function legacyUserSpecs(count: number): UserSpec[] {
  const specs: UserSpec[] = [
    { name: 'default', key: 'testuser', secret: 'testpassword', token: TOKENS.testuser, channels: '*' },
  ];
  for (let i = 1; i < count; i++) {
    const channels = [LEGACY_A, LEGACY_B, '*' as const][i % 3] as string[] | '*';
    specs.push({ name: `soak ${i}`, key: `soak-${i}`, secret: 'soak', token: `soak-legacy-${i}`, channels });
  }
  return specs;
}

export function jsonUserSpecs(count: number): UserSpec[] {
  const specs: UserSpec[] = [
    {
      name: 'default',
      key: 'testuser',
      secret: 'testpassword',
      token: TOKENS.testuser,
      channels: JSON_TESTUSER,
    },
    { name: 'all channels', key: 'alluser', secret: 'allpassword', token: TOKENS.alluser, channels: '*' },
  ];
  for (let i = 2; i < count; i++) {
    const channels = [JSON_GALLOP, JSON_OTHER_TROT][i % 2] as string[];
    specs.push({ name: `soak ${i}`, key: `soak-${i}`, secret: 'soak', token: `soak-json-${i}`, channels });
  }
  return specs;
}

export interface UsersFiles {
  readonly legacyFile: string;
  readonly jsonFile: string;
  readonly legacy: readonly SoakUser[];
  readonly json: readonly SoakUser[];
}

/** Writes USERS_FILE documents for both simulators into `dir`. */
export function writeUsersFiles(dir: string, legacyCount: number, jsonCount: number): UsersFiles {
  const legacySpecs = legacyUserSpecs(legacyCount);
  const jsonSpecs = jsonUserSpecs(jsonCount);
  const legacyFile = path.join(dir, 'legacy-users.json');
  const jsonFile = path.join(dir, 'json-users.json');
  writeFileSync(legacyFile, JSON.stringify({ users: legacySpecs }, null, 2));
  writeFileSync(jsonFile, JSON.stringify({ users: jsonSpecs }, null, 2));
  return { legacyFile, jsonFile, legacy: legacySpecs.map(soakUser), json: jsonSpecs.map(soakUser) };
}

/** Whether a message posted to `target` is meant for the user (`id` reaches every legacy user). */
export function receives(user: SoakUser, target: string): boolean {
  return target === 'id' || user.channels === undefined || user.channels.has(target);
}
