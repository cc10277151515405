/** Grading the gap between an answer and the poll after it (repoll-after-200, repoll-after-204). */
import type { CheckInfo, CheckResult, Evidence, ScenarioContext } from '../../types';
import { LONG_POLL_LIMITS as L } from './limits';
import type { LongPollKind } from './poll-kind';
import { checkResult } from './scenario-kit';
import { followerOf, nextClientRequest, requestEvidence, type RequestEvent } from './requests';

/** One answer and the client request that followed it, if any did. */
export interface Gap {
  readonly answer: RequestEvent;
  readonly next: RequestEvent | undefined;
}

/**
 * A hold time with nothing to deliver after `answer`: the poll that followed it ends 204. One
 * more message is then published so the poll after the 204 ends at once and shows when it started.
 * Resolves with that 204 poll, or undefined when none came.
 */
export async function idleRound(
  kind: LongPollKind,
  ctx: ScenarioContext,
  answer: RequestEvent,
  evidence: Evidence[],
): Promise<RequestEvent | undefined> {
  const noContent = await nextClientRequest(
    ctx,
    (event) =>
      kind.isPoll(event) &&
      event.status === 204 &&
      event.at > answer.at &&
      event.at >= answer.endedAt - L.clockToleranceMs,
    ctx.timings.longPollTimeoutMs + L.repollWithinMs + L.deliveryTimeoutMs,
  );
  if (noContent) {
    const message = await kind.publish(ctx);
    evidence.push(kind.publishedEvidence(message));
    await kind.awaitDelivery(ctx, message, L.deliveryTimeoutMs);
  }
  return noContent;
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
