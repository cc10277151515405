import { readFileSync } from 'node:fs';
import path from 'node:path';
import { settingsMarkdownTable } from '../src/settings-table';

test('the README configuration table matches the settings the CLI accepts', () => {
  const readme = readFileSync(path.resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');
  expect(readme).toContain(settingsMarkdownTable());
});
