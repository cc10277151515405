import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { JSON_USERS } from '@racedata/json-sim';
import { LEGACY_USERS } from '@racedata/legacy-sim';
import type { SimKind } from './processes';

/**
 * A USERS_FILE of the built-in users and `extra` more, bench-1..N (token bench-token-i, every
 * channel), so each client can be a user of its own: one Durable post to `id` then fills N queues.
 */
export function usersFile(dir: string, kind: SimKind, extra: number): string {
  const users = [
    ...(kind === 'json' ? JSON_USERS : LEGACY_USERS),
    ...Array.from({ length: extra }, (_, i) => ({
      ...{ name: `bench ${i + 1}`, key: `bench-${i + 1}`, secret: 'bench' },
      ...{ token: `bench-token-${i + 1}`, channels: '*' as const },
    })),
  ];
  const file = path.join(dir, `${kind}-users-${extra}.json`);
  writeFileSync(file, JSON.stringify({ users }));
  return file;
}
