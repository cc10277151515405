import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The test-kit examples of the README, docs/getting-started.md and docs/test-suites.md are the files of tested examples: each code block marked
// `<!-- example: <path> -->` must be that file, whole and unchanged, so what users copy is what
// the examples' tests run (examples/jest, examples/vitest and examples/node-test in `npm test`,
// examples/testcontainers in `npm run test:images`).
const root = path.resolve(__dirname, '..', '..', '..');
const pages = ['README.md', 'docs/getting-started.md', 'docs/test-suites.md'];
const marked = pages.flatMap((page) =>
  [
    ...readFileSync(path.join(root, page), 'utf8').matchAll(
      /<!-- example: (\S+) -->\n```[a-z]*\n([\s\S]*?)\n```/g,
    ),
  ].map((m) => ({
    page,
    file: m[1] as string,
    shown: m[2] as string,
  })),
);

test('docs/test-suites.md shows an example for each runner: jest, vitest, node:test, Testcontainers', () => {
  expect(marked.map((m) => m.file)).toEqual(
    expect.arrayContaining([
      'examples/jest/simulators.test.ts',
      'examples/vitest/simulators.vitest.ts',
      'examples/node-test/simulators.test.mjs',
      'examples/testcontainers/simulator-containers.test.ts',
    ]),
  );
});

test('the README shows the quick-start example', () => {
  expect(marked).toContainEqual(
    expect.objectContaining({ page: 'README.md', file: 'examples/jest/quick-start.test.ts' }),
  );
});

test.each(marked)('$page: $file is the file as it is', ({ file, shown }) => {
  const full = path.join(root, file);
  expect(existsSync(full)).toBe(true);
  expect(shown).toBe(readFileSync(full, 'utf8').replace(/\n$/, ''));
});
