import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { UserSpec } from '@racedata/core';
import { JSON_USERS } from '@racedata/json-sim';
import { LEGACY_USERS } from '@racedata/legacy-sim';
import type { SimKind } from './processes';

/** A user as the harness knows it: its token and what it may receive (undefined: every channel). */
export type BenchUser = { key: string; token: string; channels?: ReadonlySet<string> };

type Subscriptions = ReadonlyArray<readonly string[] | '*'>;

/**
 * A USERS_FILE of the built-in users and generated ones up to `count` in all, which take
 * `subscriptions` in turn ('*': every channel): so each client can be a user of its own (one
 * Durable post to `id` then fills a queue each), or a message reaching a user who does not take
 * its channel shows (the soak).
 */
export function usersFile(dir: string, kind: SimKind, count: number, subscriptions: Subscriptions = ['*']) {
  const specs: UserSpec[] = [...(kind === 'json' ? JSON_USERS : LEGACY_USERS)];
  for (let i = specs.length; i < count; i++) {
    const channels = subscriptions[i % subscriptions.length] as readonly string[] | '*';
    const token = `${kind}-token-${i}`;
    const list = channels === '*' ? '*' : [...channels];
    specs.push({ name: `bench ${i}`, key: `bench-${i}`, secret: 'bench', token, channels: list });
  }
  const file = path.join(dir, `${kind}-users-${count}.json`);
  writeFileSync(file, JSON.stringify({ users: specs }));
  const users: BenchUser[] = specs.map(({ key, token, channels }) => ({
    ...{ key, token },
    channels: channels === '*' ? undefined : new Set(channels),
  }));
  return { file, users, tokens: users.map((u) => u.token) };
}

/** Whether a message posted to `target` is meant for the user (`id` reaches every legacy user). */
export const receives = (user: BenchUser, target: string) =>
  target === 'id' || user.channels === undefined || user.channels.has(target);
