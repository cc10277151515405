import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The README's test-kit examples are the files of tested examples: each code block marked
// `<!-- example: <path> -->` must be that file, whole and unchanged, so what users copy is what
// the examples' tests run (examples/jest, examples/vitest and examples/node-test in `npm test`,
// examples/testcontainers in `npm run test:images`).
const root = path.resolve(__dirname, '..', '..', '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const marked = [...readme.matchAll(/<!-- example: (\S+) -->\n```[a-z]*\n([\s\S]*?)\n```/g)].map((m) => ({
  file: m[1] as string,
  shown: m[2] as string,
}));

test('the README shows an example for each runner: jest, vitest, node:test, Testcontainers', () => {
  expect(marked.map((m) => m.file)).toEqual(
    expect.arrayContaining([
      'examples/jest/simulators.test.ts',
      'examples/vitest/simulators.vitest.ts',
      'examples/node-test/simulators.test.mjs',
      'examples/testcontainers/simulator-containers.test.ts',
    ]),
  );
});

test.each(marked)('the README’s $file is the file as it is', ({ file, shown }) => {
  const full = path.join(root, file);
  expect(existsSync(full)).toBe(true);
  expect(shown).toBe(readFileSync(full, 'utf8').replace(/\n$/, ''));
});
