/** docs/certify.md documents every check of every suite, in play order, with the rule it comes from. */
import fs from 'node:fs';
import path from 'node:path';
import { SUITE_DEFINITIONS } from '../src/suites';
import { checksOf } from '../src/run/selection';

const page = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'certify.md'), 'utf8');

function section(title: string): string {
  const start = page.indexOf(`## ${title}\n`);
  if (start < 0) throw new Error(`docs/certify.md has no "## ${title}" section`);
  const end = page.indexOf('\n## ', start + 4);
  return page.slice(start, end < 0 ? undefined : end);
}

describe.each(Object.keys(SUITE_DEFINITIONS) as (keyof typeof SUITE_DEFINITIONS)[])(
  'docs/certify.md: `%s` checks',
  (suite) => {
    const rows = section(`\`${suite}\` checks`)
      .split('\n')
      .filter((line) => /^\| `[a-z0-9-]+` \|/.test(line));

    it('has one row per check of the suite, in the order the suite plays them, each citing its rule', () => {
      const ids = checksOf(SUITE_DEFINITIONS[suite]).map((check) => check.id);
      expect(rows.map((row) => /^\| `([a-z0-9-]+)`/.exec(row)?.[1])).toEqual(ids);
      // The last column names where the rule comes from: a section of the interface (4.3, 5.1-5.3)
      // or, for STOMP's own rules, the STOMP 1.2 specification.
      for (const row of rows) expect(row).toMatch(/\| [^|]*(\b\d\.\d|\b\d and \d|STOMP 1\.2)[^|]*\|$/);
    });
  },
);
