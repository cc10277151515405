import { assertWellFormedXml } from '@racedata/legacy-sim';
import { buildReport, exitCodeOf } from '../src/report/build-report';
import { junitXml } from '../src/report/junit';
import { markdownReport } from '../src/report/markdown';
import { reportTable } from '../src/report/terminal';
import type { CheckResult } from '../src/types';

const at = '2026-11-26T10:00:00.000Z';
const checks: CheckResult[] = [
  {
    id: 'events/repoll-after-204',
    status: 'pass',
    required: true,
    summary: 'next request after 12 ms',
    evidence: [],
  },
  {
    id: 'events/follows-last-event-id',
    status: 'fail',
    required: true,
    summary: 'request <3> & "lastEventId" missing',
    evidence: [{ at, what: 'GET /customerapi/events -> 200 (31 ms)\u0007 stderr: bell' }],
  },
  {
    id: 'events/no-hot-loop',
    status: 'fail',
    required: true,
    summary: 'expected',
    evidence: [],
    expectedFailure: true,
  },
  { id: 'stream/receives-all', status: 'skip', required: true, summary: 'no --echo stdout', evidence: [] },
  { id: 'stream/ignores-ping', status: 'warn', required: false, summary: 'slow | pong', evidence: [] },
];
const report = buildReport({
  suite: 'all',
  command: 'node client.mjs',
  startedAt: Date.parse(at),
  durationMs: 5123,
  checks,
});

describe('reports', () => {
  it('counts passes and the required failures that were not expected; the exit code follows', () => {
    expect(report).toMatchObject({ passed: 1, failed: 1, durationMs: 5123, startedAt: at });
    expect(exitCodeOf(report)).toBe(1);
    expect(exitCodeOf(buildReport({ ...report, startedAt: 0, checks: checks.slice(2) }))).toBe(0);
    expect(exitCodeOf(buildReport({ ...report, startedAt: 0, checks: [], aborted: 'client exited' }))).toBe(
      1,
    );
  });

  it('writes well-formed JUnit XML: one testsuite per suite, a failure only for a counted one', () => {
    const xml = junitXml(report);
    expect(() => assertWellFormedXml(xml)).not.toThrow();
    expect(xml).toContain('<testsuites name="racedata-sim certify all" tests="5" failures="1"');
    expect(xml).toContain('<testsuite name="certify events" tests="3" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('<testsuite name="certify stream" tests="2" failures="0" errors="0" skipped="1"');
    expect(xml).toContain(
      '<failure message="request &lt;3&gt; &amp; &quot;lastEventId&quot; missing" type="fail">',
    );
    expect(xml).toContain('<skipped message="expected failure: expected"/>');
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('prints a table with id, status and summary, and a markdown report with the evidence', () => {
    const table = reportTable(report);
    expect(table.split('\n')[0]).toMatch(/^check\s+status\s+summary$/);
    expect(table).toMatch(/events\/no-hot-loop\s+fail \(expected\)\s+expected/);
    expect(table).toContain('all: 1 pass, 2 fail, 1 warn, 1 skip; 1 required failed; 5.1 s');
    const md = markdownReport(report);
    expect(md).toContain('| `stream/ignores-ping` | warn | slow \\| pong |');
    expect(md).toContain('## events/follows-last-event-id: fail');
  });
});
