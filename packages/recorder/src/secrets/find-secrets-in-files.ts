import { promises as fs } from 'node:fs';
import path from 'node:path';
import { findSecrets, type SecretFinding } from './find-secrets';

export interface FileSecretFinding extends SecretFinding {
  readonly file: string;
}

/**
 * findSecrets over every file below `root` (and `root` itself when it is a file): the check a
 * test makes after a recording run, over everything the run wrote. Reads one file at a time.
 */
export async function findSecretsInFiles(
  root: string,
  secrets: readonly string[],
): Promise<FileSecretFinding[]> {
  const stat = await fs.stat(root);
  if (stat.isFile()) {
    const findings = findSecrets(await fs.readFile(root), secrets);
    return findings.map((finding) => ({ ...finding, file: root }));
  }
  const found: FileSecretFinding[] = [];
  for (const entry of await fs.readdir(root, { withFileTypes: true })) {
    const target = path.join(root, entry.name);
    if (entry.isDirectory() || entry.isFile()) found.push(...(await findSecretsInFiles(target, secrets)));
  }
  return found;
}
