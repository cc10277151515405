// Certifies a consumer from a project that installed racedata-sim, through the test kit's
// certify(). Copied into that project by test/package-install.test.ts, with the reference
// client examples/certify/events-client.mjs (and its helpers) beside it; prints the verdicts.
import { certify } from 'racedata-sim';

const report = await certify({
  suite: 'events',
  command: process.execPath,
  args: ['events-client.mjs'],
  only: ['auth-key-secret', 'repoll-after-200'],
});
const verdicts = Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
process.stdout.write(`${JSON.stringify({ failed: report.failed, verdicts })}\n`);
