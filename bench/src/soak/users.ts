import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { UserSpec } from '@racedata/core';
import { JSON_CHANNELS, JSON_USERS } from '@racedata/json-sim';
import { LEGACY_CHANNELS, LEGACY_USERS } from '@racedata/legacy-sim';

/** One user of a simulator as the soak knows it: its token and what it may receive. */
export interface SoakUser {
  readonly key: string;
  readonly token: string;
  /** Undefined: every channel. */
  readonly channels: ReadonlySet<string> | undefined;
}

// The built-in catalogs and users, so the soak follows the simulators when one is added.
/** Legacy posts go to `id` (every user) or to a channel (its subscribers). */
export const LEGACY_DURABLE_TARGETS = ['id', ...LEGACY_CHANNELS.durable];
export const LEGACY_TRANSIENT_TARGETS = ['id', ...LEGACY_CHANNELS.transient];

export const JSON_DURABLE = JSON_CHANNELS.durable;
export const JSON_TRANSIENT = JSON_CHANNELS.transient;

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

function soakUser(spec: UserSpec): SoakUser {
  return {
    key: spec.key,
    token: spec.token,
    channels: spec.channels === '*' ? undefined : new Set(spec.channels),
  };
}

/**
 * The built-in users plus generated ones with different subscriptions (taken in turn), so a
 * message on a channel a user does not take reaching that user shows as a foreign-channel delivery.
 */
function userSpecs(
  builtIn: readonly UserSpec[],
  count: number,
  kind: string,
  subscriptions: ReadonlyArray<readonly string[] | '*'>,
): UserSpec[] {
  const specs = [...builtIn];
  for (let i = specs.length; i < count; i++) {
    const channels = subscriptions[i % subscriptions.length] as string[] | '*';
    specs.push({ name: `soak ${i}`, key: `soak-${i}`, secret: 'soak', token: `soak-${kind}-${i}`, channels });
  }
  return specs;
}

/** Writes USERS_FILE documents for both simulators into `dir`. */
export function writeUsersFiles(dir: string, legacyCount: number, jsonCount: number) {
  const legacySpecs = userSpecs(LEGACY_USERS, legacyCount, 'legacy', [LEGACY_A, LEGACY_B, '*']);
  const jsonSpecs = userSpecs(JSON_USERS, jsonCount, 'json', [JSON_GALLOP, JSON_OTHER_TROT]);
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
