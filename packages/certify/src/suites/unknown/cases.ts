/**
 * tolerates-unknown and survives-edge-cases, played the same way on every suite: each unusual
 * message (or edge case) is followed by a normal one, which must reach the client (it kept
 * polling or its connection) and, with --echo stdout, be printed (it went on processing), with
 * the case's own messages where they carry a key the client prints. The first case that breaks
 * decides the verdict.
 */
import type { CheckInfo, CheckResult, Evidence, Scenario, ScenarioContext, Suite } from '../../types';
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
  /**
   * The keys (eventIds, Data ids, payloadKeys) of the case's own messages the client is to
   * print with --echo stdout, besides the normal message after it.
   */
  readonly keys?: readonly string[];
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

/** How a scenario of this kind names itself and what it sends, in its report. */
export interface FollowedWords {
  readonly info: CheckInfo;
  /** The scenario's name. */
  readonly name: string;
  /** What the cases are, after a count: `messages it has never seen`. */
  readonly noun: string;
  /**
   * At least this long from one case's start to the next: a case sends several messages, each
   * a poll answered, and cases back to back would look like a hot loop to no-hot-loop.
   */
  readonly paceMs?: number;
}

export function unknownScenario(play: UnknownPlay): Scenario {
  return followedScenario(play, {
    info: toleratesUnknown(play.suite),
    name: 'messages it has never seen',
    noun: 'messages it has never seen',
  });
}

/** Each case followed by a normal message, graded as the module comment says. */
export function followedScenario(play: UnknownPlay, words: FollowedWords): Scenario {
  const { info } = words;
  return {
    name: words.name,
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
    let printedOwn = 0;
    const fail = (summary: string) => verdict(info, 'fail', summary, evidence);
    let lastStart: number | undefined;
    for (const [n, unusual] of play.cases.entries()) {
      if (lastStart !== undefined && words.paceMs !== undefined) {
        const left = lastStart + words.paceMs - ctx.now();
        if (left > 0 && !(await ctx.wait(left))) {
          return verdict(
            info,
            'skip',
            `the run was stopped after ${n} of ${play.cases.length} cases`,
            evidence,
          );
        }
      }
      lastStart = ctx.now();
      const sentAt = ctx.now();
      const played = await orClientExit(ctx, sentAt, playCase(ctx, run, unusual, n, evidence, undo));
      if (exited(played)) {
        const { text, evidence: line } = describeExit(played.exit, sentAt, `certify sent ${unusual.name}`);
        evidence.push(line);
        return fail(text);
      }
      if (typeof played.value === 'string') return fail(`after ${unusual.name}, ${played.value}`);
      printedOwn += played.value;
    }
    const names = play.cases.map((c) => c.name).join('; ');
    if (!ctx.echo) {
      return verdict(
        info,
        'pass',
        `kept ${isPoll(play.suite) ? 'polling' : 'its connection'} through ${play.cases.length} ${words.noun} ` +
          `(${names}); run with --echo stdout to show it also processed what came next`,
        evidence,
      );
    }
    const own = printedOwn > 0 ? `the ${printedOwn} messages of the cases and ` : '';
    return verdict(
      info,
      'pass',
      `printed ${own}the normal message sent after each of ${play.cases.length} ${words.noun} (${names})`,
      evidence,
    );
  }

  /**
   * How many of the case's own messages it printed (0 without --echo) when the client came
   * through the case, else what went wrong.
   */
  async function playCase(
    ctx: ScenarioContext,
    run: UnknownRun,
    unusual: UnknownCase,
    n: number,
    evidence: Evidence[],
    undo: Array<() => void>,
  ): Promise<string | number> {
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
    if (!ctx.echo) return 0;
    const numeric = play.numericKeys === true;
    // From when it reached the client (now, once its delivery was seen), or was sent if later: a
    // busy machine's slow delivery is graded by the delivery rule, not counted against printing.
    const printDeadline = Math.max(normal.at, ctx.now()) + ECHO_WITHIN_MS;
    const printed = await awaitPrinted(ctx, normal.key, normal.at, printDeadline, numeric);
    if (!printed) {
      return `it never printed ${normal.key} (the normal message sent after it) within ${secs(ECHO_WITHIN_MS)}`;
    }
    evidence.push(note(printed.at, `client printed "${printed.line.slice(0, 80)}"`));
    // Its own messages came before the normal one, so they have had as long to be printed.
    const own = sent.keys ?? [];
    const missing: string[] = [];
    for (const key of own) {
      if (!(await awaitPrinted(ctx, key, since, printDeadline, numeric))) missing.push(key);
    }
    if (missing.length > 0) {
      return (
        `it printed the normal message after it but never ${missing.length} of the ${own.length} ` +
        `message(s) of the case (${missing.slice(0, 3).join(', ')}): it skipped them`
      );
    }
    return own.length;
  }
}

function isPoll(suite: Suite): boolean {
  return suite === 'events' || suite === 'listen';
}

/** The client's echo line holding `key`, printed from `since` on, waiting until `deadline` at most. */
async function awaitPrinted(
  ctx: ScenarioContext,
  key: string,
  since: number,
  deadline: number,
  numeric: boolean,
): Promise<{ at: number; line: string } | undefined> {
  const holds = numeric
    ? (line: string) => new RegExp(`(^|\\D)${key}(\\D|$)`).test(line)
    : (line: string) => line.includes(key);
  return ctx.traffic.next('client-line', (e) => holds(e.line), {
    since,
    timeoutMs: Math.max(0, deadline - ctx.now()),
  });
}
