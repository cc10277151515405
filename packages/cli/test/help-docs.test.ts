import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_BIN } from '@racedata/test-support/sim-process';
import { anchors } from '../../../test/docs/markdown';
import { DOCS_PAGES } from '../src/help-text';

// Every command's --help ends by naming the page of docs/ to read on, and that page (and its
// anchor) exists: the built command, run as users run it.
const root = path.resolve(__dirname, '..', '..', '..');

function help(command: string): Promise<string> {
  const args = command === 'racedata-sim' ? ['--help'] : [command, '--help'];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI_BIN, ...args], { timeout: 15_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

test.each(Object.entries(DOCS_PAGES))(
  '%s --help ends with its page, %s, which exists',
  async (command, page) => {
    const lines = (await help(command)).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      `Read more: ${page} in the racedata-sim repository (the README links every page).`,
    );
    const [file, anchor] = page.split('#') as [string, string | undefined];
    expect(existsSync(path.join(root, file))).toBe(true);
    if (anchor) expect([...anchors(readFileSync(path.join(root, file), 'utf8'))]).toContain(anchor);
  },
);
