/** Grading the gap between an answer and the poll after it (repoll-after-200, repoll-after-204). */
import type { CheckInfo, CheckResult, Evidence } from '../../types';
import { LONG_POLL_LIMITS as L } from './limits';
import { checkResult } from './scenario-kit';
import { followerOf, requestEvidence, type RequestEvent } from './requests';

/** One answer and the client request that followed it, if any did. */
export interface Gap {
  readonly answer: RequestEvent;
  readonly next: RequestEvent | undefined;
}

/** Each answer with the first client request that started after it ended. */
export function gapsAfter(answers: readonly RequestEvent[], requests: readonly RequestEvent[]): Gap[] {
  return answers.map((answer) => ({
    answer,
    next: followerOf(requests, answer),
  }));
}

function gapMs(gap: Gap): number | undefined {
  return gap.next ? Math.max(0, gap.next.at - gap.answer.endedAt) : undefined;
}

/**
 * Passes when every answer was followed by a request within `withinMs`; `what` names the answer
 * (`a 200`, `a 204`). No answer to grade is a skip with `noAnswer` as its reason.
 */
export function gradeGaps(
  info: CheckInfo,
  gaps: readonly Gap[],
  what: string,
  noAnswer: string,
  withinMs: number = L.repollWithinMs,
  extra: readonly Evidence[] = [],
): CheckResult {
  if (gaps.length === 0) return checkResult(info, 'skip', noAnswer, extra);
  const evidence: Evidence[] = [...extra];
  for (const gap of gaps) {
    const ms = gapMs(gap);
    evidence.push(requestEvidence(gap.answer));
    if (gap.next) evidence.push(requestEvidence(gap.next, `started ${ms} ms after ${what} ended`));
  }
  const late = gaps.find((gap) => {
    const ms = gapMs(gap);
    return ms === undefined || ms > withinMs;
  });
  if (late) {
    const ms = gapMs(late);
    const summary =
      ms === undefined
        ? `made no request after ${what} (waited ${withinMs} ms and more)`
        : `waited ${ms} ms after ${what} before polling again (limit ${withinMs} ms)`;
    return checkResult(info, 'fail', summary, evidence);
  }
  const worst = Math.max(...gaps.map((gap) => gapMs(gap) ?? 0));
  return checkResult(
    info,
    'pass',
    `polled again within ${worst} ms after ${what} (${gaps.length} seen, limit ${withinMs} ms)`,
    evidence,
  );
}
