import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { anchors, docPages, ROOT, relativeLinks } from './docs/markdown';

// Every relative link of the README, the changelog and docs/*.md must lead somewhere: the file
// exists, and an anchor names a heading of the page it points into.
describe.each(docPages().map((page) => [page.file, page] as const))('links of %s', (file, page) => {
  test('every relative link and anchor resolves', () => {
    const broken: string[] = [];
    for (const { line, target } of relativeLinks(page.text)) {
      const [rel, anchor] = target.split('#') as [string, string | undefined];
      const full = rel ? path.resolve(path.dirname(path.join(ROOT, file)), rel) : path.join(ROOT, file);
      if (!existsSync(full)) {
        broken.push(`${file}:${line}: ${target}: no such file`);
        continue;
      }
      if (anchor === undefined || statSync(full).isDirectory() || !full.endsWith('.md')) continue;
      if (!anchors(readFileSync(full, 'utf8')).has(anchor)) {
        broken.push(`${file}:${line}: ${target}: no heading makes #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
