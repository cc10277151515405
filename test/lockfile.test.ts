import { readFileSync } from 'node:fs';
import path from 'node:path';

// `npm ci` on a fresh clone fails with "Invalid Version" on a lock entry that has no version,
// while a machine whose node_modules is already filled keeps passing: only a check of the file
// itself catches it before a new user does.
interface LockEntry {
  version?: string;
  integrity?: string;
  resolved?: string;
  link?: boolean;
  inBundle?: boolean;
}

const root = path.resolve(__dirname, '..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  devDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
};

const installed = Object.entries(lock.packages).filter(
  ([key, entry]) => key.includes('node_modules/') && !entry.link,
);

describe('package-lock.json', () => {
  test('is a lockfile npm 10 and 11 both read', () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  test('every installed entry has a version', () => {
    expect(
      installed.filter(([, e]) => typeof e.version !== 'string' || e.version === '').map(([k]) => k),
    ).toEqual([]);
  });

  test('every downloaded entry can be verified (integrity) or fetched (resolved)', () => {
    const unverifiable = installed
      .filter(([, e]) => !e.inBundle && !e.integrity && !e.resolved)
      .map(([key]) => key);
    expect(unverifiable).toEqual([]);
  });

  test('the root entry lists exactly the dependencies package.json declares', () => {
    const rootEntry = lock.packages[''] as LockEntry & {
      devDependencies?: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    expect(rootEntry.devDependencies ?? {}).toEqual(manifest.devDependencies ?? {});
    expect(rootEntry.dependencies ?? {}).toEqual(manifest.dependencies ?? {});
  });
});
