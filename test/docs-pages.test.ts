import { startSimulators, type RunningSimulators } from 'racedata-sim';
import { docPages, readPage } from './docs/markdown';

// The README is a front door: short enough to read without scrolling past anything to the quick
// start, with every page of docs/ one click away. The control-plane page is the reference of
// every /_sim/* route the simulators describe in their OpenAPI documents.

test('the README is at most 250 lines, with the quick start before anything long', () => {
  const lines = readPage('README.md').text.split('\n');
  expect(lines.length).toBeLessThanOrEqual(250);
  expect(lines.findIndex((line) => line === '## Quick start')).toBeLessThan(20);
});

test('the README links every page of docs/', () => {
  const readme = readPage('README.md').text;
  const pages = docPages()
    .map((page) => page.file)
    .filter((file) => file.startsWith('docs/'));
  expect(pages.filter((file) => !readme.includes(`](${file})`) && !readme.includes(`](${file}#`))).toEqual(
    [],
  );
});

describe('docs/control-plane.md', () => {
  let sims: RunningSimulators;
  beforeAll(async () => {
    sims = await startSimulators();
  });
  afterAll(() => sims?.close());

  test.each(['json', 'legacy'] as const)(
    'names every /_sim/* route of the %s simulator’s OpenAPI document',
    async (kind) => {
      const page = readPage('docs/control-plane.md').text;
      const doc = (await sims[kind].openApi()) as { paths: Record<string, Record<string, unknown>> };
      const routes = Object.entries(doc.paths)
        .filter(([route]) => route.startsWith('/_sim/'))
        .flatMap(([route, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${route}`));
      expect(routes.length).toBeGreaterThan(20);
      expect(routes.filter((route) => !page.includes(`\`${route}\``))).toEqual([]);
    },
  );
});
