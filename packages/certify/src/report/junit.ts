import type { CheckResult, Report } from '../types';
import { suiteOf } from './status-label';

/**
 * JUnit XML for CI systems: one testsuite per certify suite, one testcase per check. A failed
 * required check is a <failure>; skipped, optional-failed and expected-failed checks are
 * <skipped> with the reason, so none of them fails a CI build that reads only the XML.
 */
export function junitXml(report: Report): string {
  const bySuite = new Map<string, CheckResult[]>();
  for (const check of report.checks) {
    const suite = suiteOf(check, report.suite);
    bySuite.set(suite, [...(bySuite.get(suite) ?? []), check]);
  }
  const suites = [...bySuite].map(([suite, checks]) => {
    const failures = checks.filter(isFailure).length;
    const skipped = checks.filter(
      (c) => !isFailure(c) && (c.status === 'skip' || c.status === 'fail'),
    ).length;
    const cases = checks.map((c) => testCase(suite, c)).join('');
    return (
      `  <testsuite name="${attr(`certify ${suite}`)}" tests="${checks.length}" failures="${failures}" ` +
      `errors="0" skipped="${skipped}" timestamp="${attr(report.startedAt)}">\n${cases}  </testsuite>\n`
    );
  });
  const failures = report.checks.filter(isFailure).length;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="racedata-sim certify ${attr(report.suite)}" tests="${report.checks.length}" ` +
    `failures="${failures}" errors="0" time="${(report.durationMs / 1000).toFixed(3)}">\n` +
    suites.join('') +
    `</testsuites>\n`
  );
}

function isFailure(check: CheckResult): boolean {
  return check.status === 'fail' && check.required && check.expectedFailure !== true;
}

function testCase(suite: string, check: CheckResult): string {
  const open = `    <testcase classname="${attr(`certify.${suite}`)}" name="${attr(check.id)}">`;
  const evidence = check.evidence.map((e) => `${e.at} ${e.what}`).join('\n');
  let body = '';
  if (isFailure(check)) {
    body = `\n      <failure message="${attr(check.summary)}" type="fail">${text(evidence)}</failure>\n    `;
  } else if (check.status === 'fail') {
    const why = check.expectedFailure === true ? 'expected failure' : 'optional check failed';
    body = `\n      <skipped message="${attr(`${why}: ${check.summary}`)}"/>\n    `;
  } else if (check.status === 'skip') {
    body = `\n      <skipped message="${attr(check.summary)}"/>\n    `;
  } else {
    body = `\n      <system-out>${text(`${check.status}: ${check.summary}${evidence ? `\n${evidence}` : ''}`)}</system-out>\n    `;
  }
  return `${open}${body}</testcase>\n`;
}

/** Characters XML 1.0 cannot hold at all (control characters a client's stderr may carry). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function text(value: string): string {
  return value.replace(NOT_XML, '?').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
