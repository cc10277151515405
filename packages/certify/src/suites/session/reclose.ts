import type { CheckInfo, CheckResult, Evidence, ScenarioContext } from '../../types';
import { evidenceOf, note, secs, verdict } from './evidence';
import { awaitOpen, nextClose, nextOpen, type SessionTransport } from './sessions';

/** The rule's own bound: a new session within 5 s of the server closing the old one. */
export const RECONNECT_WITHIN_MS = 5_000;
/** The close code certify closes sessions with (4000-4999: private use, RFC 6455 7.4.2). */
export const CERTIFY_CLOSE_CODE = 4000;

export interface Reclosed {
  /** When certify asked the server to close the session. */
  readonly closedAt: number;
  readonly evidence: Evidence[];
  /** The next session, if one opened within the bound. */
  readonly reopenedAt?: number;
  readonly failure?: CheckResult;
}

/**
 * Closes the user's open session from the server side and waits for the next one; shared by the
 * stream and stomp suites (stomp goes on to prove the new session subscribed).
 */
export async function closeAndAwaitReopen(
  ctx: ScenarioContext,
  info: CheckInfo,
  transport: SessionTransport,
): Promise<Reclosed> {
  const open = await awaitOpen(ctx, transport, 10_000);
  if (!open) {
    return {
      closedAt: ctx.now(),
      evidence: [],
      failure: verdict(info, 'skip', 'no open session to close (see the checks before)'),
    };
  }
  const closedAt = ctx.now();
  let closedCount: number;
  try {
    closedCount = await ctx.control.closeConnections(CERTIFY_CLOSE_CODE);
  } catch (err) {
    return {
      closedAt,
      evidence: [],
      failure: verdict(info, 'skip', `could not close the session: ${String(err)}`),
    };
  }
  const evidence = [
    evidenceOf(open),
    note(closedAt, `certify closed ${closedCount} session(s) with code ${CERTIFY_CLOSE_CODE}`),
  ];
  const closed = await nextClose(ctx, transport, closedAt, 2_000);
  if (closed) evidence.push(evidenceOf(closed));
  const from = closed?.at ?? closedAt;
  const reopened = await nextOpen(
    ctx,
    transport,
    Math.max(from, open.at + 1),
    Math.max(0, from + RECONNECT_WITHIN_MS - ctx.now()),
  );
  if (!reopened || reopened.at - from > RECONNECT_WITHIN_MS) {
    return {
      closedAt: from,
      evidence,
      failure: verdict(
        info,
        'fail',
        `no new session within ${secs(RECONNECT_WITHIN_MS)} of the server closing it`,
        evidence,
      ),
    };
  }
  evidence.push(evidenceOf(reopened));
  return { closedAt: from, evidence, reopenedAt: reopened.at };
}
