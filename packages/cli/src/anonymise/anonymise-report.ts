import path from 'node:path';
import { shownName } from '@racedata/core';
import type { AnonymiseRecordingsResult } from '@racedata/recorder';

function counts(rows: Record<string, number>): string {
  const entries = Object.entries(rows).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? 'nothing' : entries.map(([name, n]) => `${name} ${n}`).join(', ');
}

/** What the anonymise command prints on stdout: per file, then what was replaced and dropped. */
export function formatAnonymiseReport(
  result: AnonymiseRecordingsResult,
  outDir: string,
  randomSalt: boolean,
): string {
  const { files, summary } = result;
  // Names are quoted when they hold a line break or another control: a name cannot forge a line.
  const lines = [
    `anonymised ${summary.messages} messages in ${files.length} file(s) into ${shownName(outDir)}`,
  ];
  for (const file of files) {
    lines.push(`  ${shownName(`${file.kind}/${path.basename(file.output)}`)}: ${file.messages} messages`);
  }
  for (const temp of result.removedTemps) {
    lines.push(`  removed ${shownName(temp)}, left by an interrupted run`);
  }
  lines.push(`replaced: ${counts(summary.replaced)}`);
  lines.push(`redacted: ${counts(summary.redacted)}`);
  if (randomSalt) {
    lines.push('salt: random (give --salt or ANONYMISE_SALT to get the same pseudonyms in another run)');
  }
  return `${lines.join('\n')}\n`;
}
