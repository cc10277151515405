import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { UserSpec } from '@racedata/core';
import { JSON_CHANNELS, JSON_USERS } from '@racedata/json-sim';
import { LEGACY_CHANNELS, LEGACY_USERS } from '@racedata/legacy-sim';

/** One user of a simulator as the soak knows it: its token and what it may receive (undefined: every channel). */
export interface SoakUser {
  readonly key: string;
  readonly token: string;
  readonly channels: ReadonlySet<string> | undefined;
}

// The built-in catalogs and users, so the soak follows the simulators when one is added.
/** Legacy posts go to `id` (every user) or to a channel (its subscribers). */
export const LEGACY_DURABLE_TARGETS = ['id', ...LEGACY_CHANNELS.durable];
export const LEGACY_TRANSIENT_TARGETS = ['id', ...LEGACY_CHANNELS.transient];
export const { durable: JSON_DURABLE, transient: JSON_TRANSIENT } = JSON_CHANNELS;

/** Subscriptions the generated users take in turn ('*': every channel). */
const JSON_SUBSCRIPTIONS = [
  [...JSON_DURABLE, ...JSON_TRANSIENT].filter((c) => c.endsWith('Gallop')),
  ['StartListTrot', 'ScratchingsTrot', 'TimeToDefTrot', 'PrelDisqualifiedHorsesTrot'],
];
const LEGACY_SUBSCRIPTIONS = [
  ['RaceDay', 'StartList', 'TimeToStart', 'SplitTimes'],
  ['Result', 'Scratchings', 'TimeToDef', 'Last500Meters', 'PrelDisqualifiedHorses'],
  '*' as const,
];

/**
 * The built-in users plus generated ones with different subscriptions, so a message on a channel
 * a user does not take reaching that user shows as a foreign-channel delivery.
 */
function specs(
  builtIn: readonly UserSpec[],
  count: number,
  kind: string,
  subscriptions: ReadonlyArray<string[] | '*'>,
) {
  const all = [...builtIn];
  for (let i = all.length; i < count; i++) {
    const channels = subscriptions[i % subscriptions.length] as string[] | '*';
    all.push({ name: `soak ${i}`, key: `soak-${i}`, secret: 'soak', token: `soak-${kind}-${i}`, channels });
  }
  return all;
}

const soakUser = (spec: UserSpec): SoakUser => ({
  ...{ key: spec.key, token: spec.token },
  channels: spec.channels === '*' ? undefined : new Set(spec.channels),
});

/** Writes USERS_FILE documents for both simulators into `dir`. */
export function writeUsersFiles(dir: string, legacyCount: number, jsonCount: number) {
  const legacy = specs(LEGACY_USERS, legacyCount, 'legacy', LEGACY_SUBSCRIPTIONS);
  const json = specs(JSON_USERS, jsonCount, 'json', JSON_SUBSCRIPTIONS);
  const [legacyFile, jsonFile] = [path.join(dir, 'legacy-users.json'), path.join(dir, 'json-users.json')];
  writeFileSync(legacyFile, JSON.stringify({ users: legacy }));
  writeFileSync(jsonFile, JSON.stringify({ users: json }));
  return { legacyFile, jsonFile, legacy: legacy.map(soakUser), json: json.map(soakUser) };
}

/** Whether a message posted to `target` is meant for the user (`id` reaches every legacy user). */
export const receives = (user: SoakUser, target: string) =>
  target === 'id' || user.channels === undefined || user.channels.has(target);
