import { startSimulators, type RunningSimulators } from 'racedata-sim';
import { DOCS_VERSION } from '@racedata/core';
import { DEFAULT_STOMP_OPTIONS } from '@racedata/legacy-sim';
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

describe('the version', () => {
  const { version } = JSON.parse(readPage('package.json').text) as { version: string };

  test('the changelog has a section for the package version', () => {
    expect(readPage('CHANGELOG.md').text).toContain(`\n## [${version}] - `);
  });

  test('the API documents and the STOMP server name carry the package version', () => {
    expect(DOCS_VERSION).toBe(version);
    expect(DEFAULT_STOMP_OPTIONS.serverName).toBe(`racedata-legacy-sim/${version}`);
  });

  test('every version the docs show (tarball, image tag, /health) is the package version', () => {
    const shown = docPages()
      .filter((page) => page.file !== 'CHANGELOG.md')
      .flatMap((page) =>
        [
          ...page.text.matchAll(
            /racedata-sim-(\d+\.\d+\.\d+)\.tgz|-sim:(\d+\.\d+\.\d+)|"version":"(\d+\.\d+\.\d+)"/g,
          ),
        ].map((m) => `${page.file}: ${m[1] ?? m[2] ?? m[3]}`),
      );
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.filter((entry) => !entry.endsWith(`: ${version}`))).toEqual([]);
  });
});
