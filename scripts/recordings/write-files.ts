import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes each file below `root` and prints one line per file so a run shows what changed in size. */
export function writeRecordings(root: string, files: Map<string, string>): void {
  for (const [rel, text] of files) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(
      `${path.relative(process.cwd(), file)}: ${text.split('\n').length - 1} messages, ${text.length} chars`,
    );
  }
}
