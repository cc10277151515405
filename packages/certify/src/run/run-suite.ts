import {
  startClient,
  type ClientExit,
  type ClientOutput,
  type ClientProcess,
} from '../client/client-process';
import type { ConsoleAssets } from '@racedata/control';
import { startCertifyServer, type CertifyServer } from '../server/certify-server';
import type { ForeignSummary } from '../server/foreign-traffic';
import type { CertifyTimings, CheckResult, Scenario, ScenarioContext, SuiteDefinition } from '../types';
import { CertificationBoard } from './certification-board';
import { clientVariables } from './client-variables';
import type { ProgressEvent } from './progress';
import { notGraded, playScenario, type NotGraded } from './scenario-play';
import type { Selection } from './selection';

/** The client to start for each suite, or none with --attach. */
export interface ClientSpec {
  readonly command: string;
  readonly args: readonly string[];
  /** What the client inherits; the RACEDATA_* variables are added to it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  readonly killAfterMs?: number;
  readonly onOutput?: (stream: 'stdout' | 'stderr', line: string) => void;
}

export interface SuiteRunOptions {
  readonly definition: SuiteDefinition;
  readonly selection: Selection;
  readonly timings: CertifyTimings;
  readonly client?: ClientSpec;
  readonly attach?: { readonly port: number; readonly host?: string };
  readonly echo: boolean;
  /** Aborted (with a NotGraded as reason) on Ctrl-C or when the run's --timeout passes. */
  readonly signal: AbortSignal;
  /** How long a started client has to make its first request before the suite is abandoned. */
  readonly startupTimeoutMs: number;
  readonly now: () => number;
  readonly progress: (event: ProgressEvent) => void;
  /** The client command line as given, for the console; undefined with --attach. */
  readonly clientLine?: string;
  /** The built console: served on the suite's simulator with the certification shown. */
  readonly consoleAssets?: ConsoleAssets;
  /** Where the docs pages the console links are read from (served at /_sim/docs/). */
  readonly docsRoot?: string;
}

export interface SuiteOutcome {
  readonly checks: CheckResult[];
  readonly aborted?: string;
  /** Traffic that was not the client's, when there was some (--attach). */
  readonly foreign?: ForeignSummary;
}

/** How often the console hears that foreign traffic grew. */
const FOREIGN_UPDATE_MS = 1000;

/**
 * One suite: a fresh certify server, the client started against it (or awaited, with --attach),
 * the scenarios played in order, then the client stopped and the server closed, whatever happened.
 */
export async function runSuite(options: SuiteRunOptions): Promise<SuiteOutcome> {
  const { definition, selection, now } = options;
  const suite = definition.suite;
  const keep = (check: { id: string }) => selection.includes(suite, check.id);
  const board = new CertificationBoard({
    suite,
    client: options.client ? (options.clientLine ?? options.client.command) : undefined,
    timings: options.timings,
    scenarios: definition.scenarios.map((s) => ({ name: s.name, checks: s.checks.filter(keep) })),
    now,
  });
  const progress = (event: ProgressEvent) => {
    board.fold(event);
    options.progress(event);
  };
  const server = await startCertifyServer({
    simulator: definition.simulator,
    timings: options.timings,
    ...(options.attach && { port: options.attach.port, host: options.attach.host, attached: true }),
    now,
    certification: board,
    ...(options.consoleAssets && { consoleAssets: options.consoleAssets }),
    ...(options.docsRoot !== undefined && { docsRoot: options.docsRoot }),
  });
  const stop = new AbortController();
  const onOuter = () => stop.abort(options.signal.reason);
  if (options.signal.aborted) onOuter();
  else options.signal.addEventListener('abort', onOuter, { once: true });
  const variables = clientVariables(suite, server, options.timings);
  server.serveVariables(variables);
  const foreign = watchForeign(server, suite, progress);
  progress({
    type: 'suite-start',
    suite,
    timings: options.timings,
    variables,
    attach: !options.client,
    ...(server.console !== undefined && { console: server.console }),
  });
  let client: ClientProcess | undefined;
  const checks: CheckResult[] = [];
  // The scenario playing, for a client that ends while one that grades its end is playing.
  let playing: { readonly scenario: Scenario; readonly done: Promise<unknown> } | undefined;
  /** Once the client has ended: how the run ended, even if the last scenario finished first. */
  let ended: (() => NotGraded) | undefined;
  try {
    if (options.client) {
      client = startClient({
        ...options.client,
        env: { ...options.client.env, ...variables },
        echo: options.echo,
        record: (event) => server.traffic.record(event),
        now,
      });
      void client.exited.then(async (exit) => {
        ended = () => clientEnded(exit, client?.startedAt ?? exit.at, client?.stderrTail() ?? []);
        if (playing?.scenario.gradesClientExit === true) await settledWithin(playing.done, EXIT_GRACE_MS);
        if (!stop.signal.aborted) stop.abort(ended());
      });
    }
    const silent = await awaitClient(server, { ...options, progress }, stop.signal, client);
    if (silent && !stop.signal.aborted) stop.abort(silent);
    const ctx = scenarioContext(options, server, stop.signal);
    const reason = () => (stop.signal.aborted ? (stop.signal.reason as NotGraded) : undefined);
    for (const scenario of definition.scenarios) {
      if (!scenario.checks.some(keep)) continue;
      progress({
        type: 'scenario-start',
        suite,
        name: scenario.name,
        checks: scenario.checks.filter(keep),
      });
      const stoppedBefore = reason();
      let results: CheckResult[];
      if (stoppedBefore) {
        results = scenario.checks.filter(keep).map((check) => notGraded(check, stoppedBefore));
      } else {
        const done = playScenario(scenario, ctx, keep, reason);
        playing = { scenario, done };
        results = await done;
        playing = undefined;
      }
      for (const result of results) {
        const expected = result.status === 'fail' && selection.expected(suite, result.id);
        const shown = { ...result, ...(expected && { expectedFailure: true as const }) };
        checks.push(shown);
        progress({ type: 'check', suite, result: shown });
      }
    }
  } finally {
    options.signal.removeEventListener('abort', onOuter);
    if (!stop.signal.aborted && ended) stop.abort(ended());
    const why = stop.signal.aborted ? (stop.signal.reason as NotGraded).summary : undefined;
    if (!stop.signal.aborted) stop.abort();
    foreign.end();
    // Before the server closes: the console on its simulator shows how the suite ended.
    progress({ type: 'suite-end', suite, ...(why !== undefined && { aborted: why }) });
    await client?.stop();
    await server.close();
  }
  const aborted = abortedLine(stop.signal.reason);
  const seen = server.foreign.summary();
  return { checks, ...(aborted !== undefined && { aborted }), ...(seen.count > 0 && { foreign: seen }) };
}

/**
 * Tells the console (and at the end the terminal) about traffic that was not the client's: at
 * most once a second while it grows, and its total before the suite ends.
 */
function watchForeign(
  server: CertifyServer,
  suite: SuiteRunOptions['definition']['suite'],
  progress: (event: ProgressEvent) => void,
): { end(): void } {
  let timer: NodeJS.Timeout | undefined;
  const send = (final: boolean) => {
    const { count, sample } = server.foreign.summary();
    if (count > 0) progress({ type: 'foreign', suite, count, sample, final });
  };
  const unsubscribe = server.foreign.onChange(() => {
    timer ??= setTimeout(() => {
      timer = undefined;
      send(false);
    }, FOREIGN_UPDATE_MS);
  });
  return {
    end: () => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
      send(true);
    },
  };
}

/** Waits for the client's first request or upgrade: scenarios play against a client that is up. */
async function awaitClient(
  server: CertifyServer,
  options: SuiteRunOptions,
  signal: AbortSignal,
  client: ClientProcess | undefined,
): Promise<NotGraded | undefined> {
  // From the client's start: a quick client's first request may come before this wait begins.
  const since = client?.startedAt ?? options.now();
  // With --attach a person starts the client, so only the run's --timeout bounds the wait.
  const timeoutMs = client ? options.startupTimeoutMs : 2_147_483_647;
  const first = await Promise.race([
    server.traffic.next('request', () => true, { timeoutMs, since }),
    server.traffic.next('upgrade', () => true, { timeoutMs, since }),
    new Promise<undefined>((resolve) => {
      if (signal.aborted) resolve(undefined);
      signal.addEventListener('abort', () => resolve(undefined), { once: true });
    }),
  ]);
  if (first) {
    options.progress({ type: 'client-ready', suite: options.definition.suite, afterMs: first.at - since });
    return undefined;
  }
  if (signal.aborted) return undefined;
  const seconds = Math.round(options.startupTimeoutMs / 100) / 10;
  const flood = client === undefined ? undefined : floodText(client.output());
  return {
    status: 'fail',
    summary: `not graded: the client made no request within ${seconds} s of its start${flood === undefined ? '' : `; it flooded its output instead (${flood})`}`,
    evidence: [
      {
        at: new Date(options.now()).toISOString(),
        what: `no request or upgrade in ${seconds} s${flood === undefined ? '' : `; printed ${flood}`}`,
      },
    ],
  };
}

/** More than this before a first request, stdout and stderr together, is a flood, not an echo or a log. */
const FLOOD_LINES = 10_000;
const FLOOD_CHARS = 1024 * 1024;

/** `1234567 lines (98.8 MB) on stdout`, when what the client printed is a flood; else undefined. */
function floodText(output: ClientOutput): string | undefined {
  const lines = output.stdoutLines + output.stderrLines;
  const chars = output.stdoutChars + output.stderrChars;
  if (lines < FLOOD_LINES && chars < FLOOD_CHARS) return undefined;
  const where = output.stdoutChars >= output.stderrChars ? 'stdout' : 'stderr';
  return `${lines} lines (${(chars / 1e6).toFixed(1)} MB) on ${where}`;
}

function scenarioContext(
  options: SuiteRunOptions,
  server: CertifyServer,
  signal: AbortSignal,
): ScenarioContext {
  return {
    suite: options.definition.suite,
    base: server.base,
    wsBase: server.wsBase,
    user: { key: server.user.key, secret: server.user.secret },
    timings: options.timings,
    traffic: server.traffic,
    control: server.control,
    frontDoor: server.frontDoor,
    now: options.now,
    wait: (ms) =>
      new Promise<boolean>((resolve) => {
        if (signal.aborted) return resolve(false);
        const onAbort = () => {
          clearTimeout(timer);
          resolve(false);
        };
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve(true);
        }, ms);
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    echo: options.echo,
    signal,
  };
}

/**
 * How long a scenario that grades the client's end (Scenario.gradesClientExit) has to give its
 * verdict once the client ended, before the run is stopped.
 */
export const EXIT_GRACE_MS = 2_000;

function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}

function clientEnded(
  exit: ClientExit,
  startedAt: number,
  stderr: readonly string[],
): NotGraded & { stderr: readonly string[] } {
  const after = `after ${Math.max(0, exit.at - startedAt)} ms`;
  const how =
    exit.error !== undefined
      ? `client did not start (${exit.error})`
      : exit.signal !== null
        ? `client was killed by ${exit.signal} ${after}`
        : `client exited with code ${exit.code} ${after}`;
  const at = new Date(exit.at).toISOString();
  return {
    status: 'fail',
    summary: `not graded: ${how}`,
    evidence: [{ at, what: how }],
    stderr,
  };
}

function abortedLine(reason: unknown): string | undefined {
  const ended = reason as (NotGraded & { stderr?: readonly string[] }) | undefined;
  if (ended?.summary === undefined) return undefined;
  const head = ended.summary.replace(/^not graded: /, '');
  const lines = (ended.stderr ?? []).map((line) => `  ${line}`);
  return lines.length > 0 ? `${head}; its last stderr lines:\n${lines.join('\n')}` : head;
}
