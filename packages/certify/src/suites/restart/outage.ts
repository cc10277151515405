/**
 * survives-restart's outage and the parts of its grading every suite shares: the plan, the
 * retry rate while away, and the evidence that tells what happened when.
 */
import type {
  CheckInfo,
  CheckResult,
  Evidence,
  OutageOutcome,
  OutagePlan,
  ScenarioContext,
} from '../../types';
import { describeExit, exited, orClientExit } from '../session/client-exit';
import { note, secs, verdict } from '../session/evidence';
import { mostInWindow } from '../session/rate';
import { ATTEMPTS_PER_SECOND, JITTER_ALLOWANCE } from '../session/refused';

/**
 * 5 s away: first nothing listens (a connection attempt is refused), then the port takes
 * connections and closes each at once, as a proxy in front of a starting server does. Only the
 * second half's attempts reach certify, so the retry rate is read there.
 */
export const OUTAGE: OutagePlan = { refusedMs: 2_500, closingMs: 2_500 };
/** After the simulator is back, the client is polling or connected again within this. */
export const BACK_WITHIN_MS = 5_000;
/** The rule, and its allowance for a timer firing a few ms early on shared cores (as no-hot-loop). */
export const RETRIES_PER_SECOND = ATTEMPTS_PER_SECOND;
const RETRY_LIMIT = ATTEMPTS_PER_SECOND + JITTER_ALLOWANCE;

/** What happened while the simulator was away, as report lines. */
export function outageEvidence(outcome: OutageOutcome): Evidence[] {
  const lines = [
    note(
      outcome.downAt,
      `the simulator went away: ${outcome.dropped} connection(s) dropped, nothing listens on its port (refused)`,
    ),
  ];
  if (outcome.closingAt !== undefined) {
    lines.push(note(outcome.closingAt, 'its port takes connections again and closes each at once'));
  }
  const attempts = outcome.attempts;
  if (attempts.length > 0) {
    lines.push(note(attempts[0] as number, `connection attempt 1 of ${attempts.length} while closing`));
    if (attempts.length > 1) {
      lines.push(
        note(attempts[attempts.length - 1] as number, `connection attempt ${attempts.length} while closing`),
      );
    }
  }
  if (outcome.foreign) {
    lines.push(
      note(
        outcome.closingAt ?? outcome.downAt,
        `${outcome.foreign} connection attempt(s) while closing were another process's (--attach), not counted`,
      ),
    );
  }
  if (outcome.backAt !== undefined)
    lines.push(note(outcome.backAt, 'the simulator answers again, with its state'));
  return lines;
}

/**
 * Takes the simulator away and brings it back. Resolves with the outcome, or with a verdict when
 * the outcome already decides the check: the client ended, retried too fast, or certify could
 * not bring the simulator back.
 */
export async function playOutage(
  ctx: ScenarioContext,
  info: CheckInfo,
  before: readonly Evidence[],
): Promise<
  { readonly outcome: OutageOutcome; readonly evidence: Evidence[] } | { readonly result: CheckResult }
> {
  const downAt = ctx.now();
  const away = ctx.frontDoor.outage(OUTAGE, ctx.signal);
  // The outage goes on by itself once started: a client that ends does not end it.
  away.catch(() => undefined);
  const waited = await orClientExit(ctx, downAt, away);
  if (exited(waited)) {
    const { text, evidence } = describeExit(waited.exit, downAt, 'the simulator went away');
    const evidenceList = [
      ...before,
      note(downAt, 'the simulator went away: every connection dropped, new ones refused'),
      evidence,
    ];
    return { result: verdict(info, 'fail', `${text}: a server that restarts ends it`, evidenceList) };
  }
  const outcome = waited.value;
  const evidence = [...before, ...outageEvidence(outcome)];
  if (outcome.backAt === undefined) {
    const why = outcome.error ?? 'the run stopped while it was away';
    return { result: verdict(info, 'skip', `certify could not bring the simulator back: ${why}`, evidence) };
  }
  const most = mostInWindow(outcome.attempts, 1000);
  if (most > RETRY_LIMIT) {
    return {
      result: verdict(
        info,
        'fail',
        `retried ${most} times within one second while the simulator was away (${outcome.attempts.length} attempts in ` +
          `${secs(OUTAGE.closingMs)}; limit ${RETRIES_PER_SECOND} a second, ${RETRY_LIMIT} with jitter allowance)`,
        evidence,
      ),
    };
  }
  return { outcome, evidence };
}

/** `2 attempts in the last 2.5 s away, at most 1 in any second` for a summary. */
export function retriesText(outcome: OutageOutcome): string {
  const most = mostInWindow(outcome.attempts, 1000);
  return `${outcome.attempts.length} attempt(s) in the last ${secs(OUTAGE.closingMs)} away, at most ${most} in any second`;
}
