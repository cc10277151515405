import { readFileSync } from 'node:fs';
import path from 'node:path';
import { settingsHelp } from '../src/help-text';
import { settingsMarkdownTable } from '../src/settings-table';

// docs/configuration.md is where users look a setting up; `racedata-sim --help` is where the
// command lists them. Both come from the one settings table, and these tests hold the page to it.
const page = readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'configuration.md'), 'utf8');

test('docs/configuration.md holds the settings table the CLI accepts, as rendered from its settings', () => {
  expect(page).toContain(settingsMarkdownTable());
});

test('every setting `racedata-sim --help` lists is on docs/configuration.md, with its flag', () => {
  const listed = settingsHelp('top')
    .split('\n')
    .map((line) => /^ {2}([A-Z][A-Z0-9_]+)(?: \((--[a-z-]+)\))?/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null);
  expect(listed.length).toBeGreaterThan(40);
  const missing = listed.filter(
    ([, env, flag]) => !page.includes(`\`${env}\``) || (flag && !page.includes(`\`${flag}\``)),
  );
  expect(missing.map(([, env, flag]) => `${env} ${flag ?? ''}`.trim())).toEqual([]);
});
