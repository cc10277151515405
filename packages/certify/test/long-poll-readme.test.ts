/** The README documents every check of the events and listen suites, with its interface section. */
import fs from 'node:fs';
import path from 'node:path';
import { SUITE_DEFINITIONS } from '../src/suites';
import { checksOf } from '../src/run/selection';

const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');

function section(title: string): string {
  const start = readme.indexOf(`### ${title}\n`);
  if (start < 0) throw new Error(`README has no "### ${title}" section`);
  const end = readme.indexOf('\n#', start + 4);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe.each(['events', 'listen'] as const)('README: `%s` checks', (suite) => {
  const rows = section(`\`${suite}\` checks`)
    .split('\n')
    .filter((line) => /^\| `[a-z0-9-]+` \|/.test(line));

  it('has one row per check of the suite, in the order the suite plays them, each citing a section', () => {
    const ids = checksOf(SUITE_DEFINITIONS[suite]).map((check) => check.id);
    expect(rows.map((row) => /^\| `([a-z0-9-]+)`/.exec(row)?.[1])).toEqual(ids);
    for (const row of rows) expect(row).toMatch(/\| [^|]*\b\d\.\d/);
  });
});
