/**
 * Holding the client's next poll at certify's fault layer (a `hold` rule), as gives-up-on-stalled-poll
 * and survives-restart do: the poll gets no answer and not a byte until the rule goes.
 */
import type { Evidence, ScenarioContext } from '../../types';
import type { LongPollKind, Published } from './poll-kind';
import { noteEvidence } from './requests';

/** How often GET /_sim/faults is read while waiting for the rule to take a poll. */
const READ_EVERY_MS = 100;

export interface Held {
  /** The rule's id, to remove it. */
  readonly id: string;
  /** What certify published to end the poll in flight, which must still reach the client. */
  readonly wake: Published;
  /** When certify saw the rule holding a poll; undefined when no poll came within the wait. */
  readonly heldAt: number | undefined;
}

/**
 * Adds a rule that holds the next poll, then publishes a message: a poll already in flight (let
 * in before the rule) answers with it, and the poll after it is held. A client whose first poll
 * comes only now has that one held, with the message waiting behind it. Resolves once a poll is
 * held, or after `waitMs`.
 */
export async function holdNextPoll(
  ctx: ScenarioContext,
  kind: LongPollKind,
  waitMs: number,
  evidence: Evidence[],
): Promise<Held> {
  const id = await ctx.control.addFault({
    match: { transport: kind.faultTransport },
    action: { type: 'hold' },
    times: 1,
  });
  const wake = await kind.publish(ctx);
  evidence.push(kind.publishedEvidence(wake));
  const deadline = ctx.now() + waitMs;
  for (;;) {
    if (((await ctx.control.faultFired(id)) ?? 0) > 0) {
      const heldAt = ctx.now();
      evidence.push(noteEvidence(heldAt, `certify holds the client's poll: no answer, not a byte`));
      return { id, wake, heldAt };
    }
    if (ctx.now() >= deadline || !(await ctx.wait(READ_EVERY_MS))) return { id, wake, heldAt: undefined };
  }
}
