import type { ConsoleAssets } from '@racedata/control';
import { CertifyError } from '../errors';
import { CERTIFY_TIMINGS } from '../timings';
import { resolveCommand } from '../client/resolve-command';
import { SUITE_DEFINITIONS } from '../suites';
import { buildReport } from '../report/build-report';
import { FOREIGN_SAMPLE } from '../server/foreign-traffic';
import type { CertifyTimings, CheckResult, Evidence, Report, Suite, SuiteDefinition } from '../types';
import type { ProgressEvent } from './progress';
import { runSuite, type ClientSpec } from './run-suite';
import { notGraded, type NotGraded } from './scenario-play';
import { checksOf, parseSuite, reportId, select } from './selection';

export interface CertifyOptions {
  readonly suite: Suite | 'all';
  /** The client to start for each suite; leave out with `attach`. */
  readonly client?: ClientSpec;
  /** Serve on this port and wait for a client started by hand. */
  readonly attach?: { readonly port: number; readonly host?: string };
  /** The client prints one line per message it processed (--echo stdout). */
  readonly echo?: boolean;
  readonly only?: readonly string[];
  readonly expectedFailures?: readonly string[];
  /** The whole run's limit; past it unfinished checks fail. Default 120 s a suite. */
  readonly timeoutMs?: number;
  /** How long a started client has to make its first request (default 15 s). */
  readonly startupTimeoutMs?: number;
  /** Ctrl-C: the client is stopped and the report holds what was graded so far. */
  readonly signal?: AbortSignal;
  readonly progress?: (event: ProgressEvent) => void;
  /** Tests hand in their own suites; the product plays SUITE_DEFINITIONS. */
  readonly definitions?: Readonly<Record<Suite, SuiteDefinition>>;
  readonly timings?: CertifyTimings;
  /** Real time, ms since the epoch. */
  readonly now?: () => number;
  /**
   * The built QA console ('@racedata/console', as the CLI passes it): each suite's simulator
   * serves it at /_sim/ui with the certification shown live. Without it there is no page.
   */
  readonly consoleAssets?: ConsoleAssets;
  /** Where the docs pages the console links are read from (served at /_sim/docs/). */
  readonly docsRoot?: string;
}

export const DEFAULT_SUITE_TIMEOUT_MS = 120_000;
export const DEFAULT_STARTUP_TIMEOUT_MS = 15_000;

/** What a run ended on, when it did not run to the end. */
export const INTERRUPTED: NotGraded = { status: 'skip', summary: 'not graded: interrupted', evidence: [] };

/**
 * A certification: checks the options (usage errors throw CertifyError before anything starts),
 * plays each suite against a fresh simulator and client, and returns the report. It never throws
 * once started: a client that ends early, a timeout or Ctrl-C end in a report that says so.
 */
export async function certify(options: CertifyOptions): Promise<Report> {
  const now = options.now ?? Date.now;
  const definitions = options.definitions ?? SUITE_DEFINITIONS;
  if (options.attach && options.suite === 'all') {
    // Each suite has its own simulator and secret: a client started by hand could not follow.
    throw new CertifyError('OPTIONS_INVALID', { detail: '--attach plays one suite at a time, not all' });
  }
  if (!options.attach && !options.client) {
    throw new CertifyError('OPTIONS_INVALID', { detail: 'no client command, and not --attach' });
  }
  // The suite is checked here too: the test kit's callers are not held to the type at run time.
  const selection = select(
    parseSuite(options.suite),
    definitions,
    options.only,
    options.expectedFailures ?? [],
  );
  const client = options.client && {
    ...options.client,
    command: resolveCommand(
      options.client.command,
      options.client.env.PATH,
      options.client.cwd ?? process.cwd(),
    ),
  };
  const startedAt = now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_SUITE_TIMEOUT_MS * selection.suites.length;
  const run = new AbortController();
  const seconds = Math.round(timeoutMs / 100) / 10;
  const timer = setTimeout(
    () =>
      run.abort({
        status: 'fail',
        summary: `not graded: the run timed out after ${seconds} s`,
        evidence: [],
      }),
    timeoutMs,
  );
  const onInterrupt = () => run.abort(INTERRUPTED);
  if (options.signal?.aborted) onInterrupt();
  options.signal?.addEventListener('abort', onInterrupt, { once: true });
  const checks: CheckResult[] = [];
  let aborted: string | undefined;
  let foreign: { count: number; sample: Evidence[] } | undefined;
  try {
    for (const suite of selection.suites) {
      const definition = definitions[suite];
      // A suite --only left nothing of is not started at all (no simulator, no client).
      if (options.only && !checksOf(definition).some((c) => selection.includes(suite, c.id))) continue;
      if (run.signal.aborted) {
        const reason = run.signal.reason as NotGraded;
        for (const check of checksOf(definition).filter((c) => selection.includes(suite, c.id))) {
          checks.push(qualify(suite, selection.qualified, notGraded(check, reason)));
        }
        continue;
      }
      const outcome = await runSuite({
        definition,
        selection,
        timings: options.timings ?? CERTIFY_TIMINGS,
        ...(client && { client }),
        ...(options.attach && { attach: options.attach }),
        echo: options.echo ?? false,
        signal: run.signal,
        startupTimeoutMs: options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
        now,
        progress: options.progress ?? (() => undefined),
        ...(options.client && { clientLine: [options.client.command, ...options.client.args].join(' ') }),
        ...(options.consoleAssets && { consoleAssets: options.consoleAssets }),
        ...(options.docsRoot !== undefined && { docsRoot: options.docsRoot }),
      });
      checks.push(...outcome.checks.map((c) => qualify(suite, selection.qualified, c)));
      if (outcome.foreign !== undefined) {
        foreign ??= { count: 0, sample: [] };
        foreign.count += outcome.foreign.count;
        foreign.sample.push(...outcome.foreign.sample.slice(0, FOREIGN_SAMPLE - foreign.sample.length));
      }
      if (outcome.aborted !== undefined) {
        aborted ??= selection.qualified ? `${suite}: ${outcome.aborted}` : outcome.aborted;
      }
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onInterrupt);
  }
  const command = client ? [options.client?.command ?? '', ...client.args].join(' ') : 'attached';
  return buildReport({
    suite: options.suite,
    command,
    startedAt,
    durationMs: now() - startedAt,
    checks,
    ...(aborted !== undefined && { aborted }),
    ...(foreign !== undefined && { foreign }),
  });
}

function qualify(suite: Suite, qualified: boolean, check: CheckResult): CheckResult {
  return { ...check, id: reportId(suite, check.id, qualified) };
}
