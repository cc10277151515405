/**
 * tolerates-unknown, played the same way on every suite: each unusual message is followed by a
 * normal one, which must reach the client (it kept polling or its connection) and, with --echo
 * stdout, be printed (it went on processing). The first case that breaks decides the verdict.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext, Suite } from '../../types';
import { ECHO_WITHIN_MS } from '../session/echo';
import { describeExit, exited, orClientExit } from '../session/client-exit';
import { note, secs, verdict } from '../session/evidence';
import { toleratesUnknown } from './check-info';

/** One unusual message. */
export interface UnknownCase {
  /** How the report names it: `a message type it does not know`. */
  readonly name: string;
  /** Sends it (through the simulator, or certify's front door). */
  send(ctx: ScenarioContext): Promise<Sent>;
}

export interface Sent {
  readonly evidence: Evidence[];
  /** Undoes a change certify's front door keeps making for this case, once the scenario ends. */
  readonly undo?: () => void;
}

/** The normal message sent after a case. */
export interface Normal {
  /** What the client prints for it with --echo stdout: its eventId, Data id or payloadKey. */
  readonly key: string;
  readonly at: number;
  readonly evidence: Evidence;
}

/** One run's way of sending normal messages and telling they arrived. */
export interface UnknownRun {
  sendNormal(n: number): Promise<Normal>;
  /**
   * Whether the normal message reached the client (it kept polling, or its session): the
   * evidence of it, else why not, in words that follow "the normal message after it ...".
   */
  reached(normal: Normal, since: number): Promise<{ readonly evidence?: Evidence; readonly missed?: string }>;
  /** Releases what the run took (certify's own session). */
  finish(): Promise<void>;
}

export interface UnknownPlay {
  readonly suite: Suite;
  readonly cases: readonly UnknownCase[];
  /** The run, once the client is ready for the cases; else why the check cannot be played. */
  start(ctx: ScenarioContext): Promise<UnknownRun | string>;
  /** Echo lines hold numbers (eventIds): a key must then be a whole number of its own on the line. */
  readonly numericKeys?: boolean;
  /** How the normal message is named: `event 42`, `Data 5e1c…`. */
  describe(normal: Normal): string;
}

export function unknownScenario(play: UnknownPlay): Scenario {
  const info = toleratesUnknown(play.suite);
  return {
    name: 'messages it has never seen',
    checks: [info],
    gradesClientExit: true,
    async run(ctx) {
      const run = await play.start(ctx);
      if (typeof run === 'string') return [verdict(info, 'skip', run)];
      const undo: Array<() => void> = [];
      try {
        return [await grade(ctx, run, undo)];
      } finally {
        for (const done of undo) done();
        await run.finish();
      }
    },
  };

  async function grade(ctx: ScenarioContext, run: UnknownRun, undo: Array<() => void>): Promise<CheckResult> {
    const evidence: Evidence[] = [];
    const fail = (summary: string) => verdict(info, 'fail', summary, evidence);
    for (const [n, unusual] of play.cases.entries()) {
      const sentAt = ctx.now();
      const played = await orClientExit(ctx, sentAt, playCase(ctx, run, unusual, n, evidence, undo));
      if (exited(played)) {
        const { text, evidence: line } = describeExit(played.exit, sentAt, `certify sent ${unusual.name}`);
        evidence.push(line);
        return fail(text);
      }
      if (played.value !== undefined) return fail(`after ${unusual.name}, ${played.value}`);
    }
    const names = play.cases.map((c) => c.name).join('; ');
    if (!ctx.echo) {
      return verdict(
        info,
        'pass',
        `kept ${isPoll(play.suite) ? 'polling' : 'its connection'} through ${play.cases.length} messages it has never seen ` +
          `(${names}); run with --echo stdout to show it also processed what came next`,
        evidence,
      );
    }
    return verdict(
      info,
      'pass',
      `printed the normal message sent after each of ${play.cases.length} messages it has never seen (${names})`,
      evidence,
    );
  }

  /** Undefined when the client came through the case, else what went wrong. */
  async function playCase(
    ctx: ScenarioContext,
    run: UnknownRun,
    unusual: UnknownCase,
    n: number,
    evidence: Evidence[],
    undo: Array<() => void>,
  ): Promise<string | undefined> {
    const since = ctx.now();
    const sent = await unusual.send(ctx);
    if (sent.undo) undo.push(sent.undo);
    evidence.push(...sent.evidence);
    const normal = await run.sendNormal(n);
    evidence.push(normal.evidence);
    const reached = await run.reached(normal, since);
    if (reached.evidence) evidence.push(reached.evidence);
    if (reached.missed !== undefined)
      return `the normal message after it (${play.describe(normal)}) ${reached.missed}`;
    if (!ctx.echo) return undefined;
    const printed = await awaitPrinted(ctx, normal, play.numericKeys === true);
    if (!printed) {
      return `it never printed ${normal.key} (the normal message sent after it) within ${secs(ECHO_WITHIN_MS)}`;
    }
    evidence.push(note(printed.at, `client printed "${printed.line.slice(0, 80)}"`));
    return undefined;
  }
}

function isPoll(suite: Suite): boolean {
  return suite === 'events' || suite === 'listen';
}

/** The client's echo line holding the normal message's key, within ECHO_WITHIN_MS of it being sent. */
async function awaitPrinted(
  ctx: ScenarioContext,
  normal: Normal,
  numeric: boolean,
): Promise<{ at: number; line: string } | undefined> {
  const holds = numeric
    ? (line: string) => new RegExp(`(^|\\D)${normal.key}(\\D|$)`).test(line)
    : (line: string) => line.includes(normal.key);
  const deadline = normal.at + ECHO_WITHIN_MS;
  return ctx.traffic.next('client-line', (e) => holds(e.line), {
    since: normal.at,
    timeoutMs: Math.max(0, deadline - ctx.now()),
  });
}
