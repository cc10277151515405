import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CertifyError } from '../errors';
import type { Report } from '../types';
import { junitXml } from './junit';
import { markdownReport } from './markdown';

export interface ReportFiles {
  /** --report: the JSON report. */
  readonly json?: string;
  readonly junit?: string;
  readonly markdown?: string;
}

/** Writes each report asked for; a file that cannot be written is a CertifyError naming it. */
export async function writeReports(report: Report, files: ReportFiles): Promise<void> {
  const jobs: Array<[string | undefined, () => string]> = [
    [files.json, () => `${JSON.stringify(report, null, 2)}\n`],
    [files.junit, () => junitXml(report)],
    [files.markdown, () => markdownReport(report)],
  ];
  for (const [file, render] of jobs) {
    if (file === undefined) continue;
    try {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, render());
    } catch (err) {
      throw new CertifyError('REPORT_UNWRITABLE', { file, detail: (err as Error).message }, { cause: err });
    }
  }
}
