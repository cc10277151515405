import type { Scenario } from '../../types';
import { note, secs, verdict } from '../session/evidence';
import { awaitOpen } from '../session/sessions';
import { STOMP_CHECKS } from './checks';
import { PROBE_CHANNEL, probeSubscription } from './probe';

/** How long after its session opened the client has to subscribe. */
export const SUBSCRIBE_WITHIN_MS = 5_000;

export const subscribeScenario: Scenario = {
  name: 'subscription',
  checks: [STOMP_CHECKS.subscribes],
  async run(ctx) {
    const info = STOMP_CHECKS.subscribes;
    const open = await awaitOpen(ctx, 'stomp', 10_000);
    if (!open) return [verdict(info, 'skip', 'no STOMP session to probe (see connects-with-bearer)')];
    let outcome;
    try {
      outcome = await probeSubscription(
        ctx,
        'subscribes',
        Math.max(open.at + SUBSCRIBE_WITHIN_MS, ctx.now() + 1_000),
      );
    } catch (err) {
      return [verdict(info, 'skip', `could not inject or read the journal: ${String(err)}`)];
    }
    const evidence = [
      note(open.at, 'STOMP session open'),
      ...outcome.injected.map((p) => note(p.at, `injected NonDurable ${PROBE_CHANNEL} payloadKey=${p.key}`)),
    ];
    if (outcome.delivered) {
      const { key, at } = outcome.delivered;
      evidence.push(note(at, `journal: ${key} delivered to ${ctx.user.key} over stomp`));
      return [
        verdict(
          info,
          'pass',
          `subscribed: a NonDurable message reached it ${secs(at - open.at)} after its session opened`,
          evidence,
        ),
      ];
    }
    return [
      verdict(
        info,
        'fail',
        `none of ${outcome.injected.length} NonDurable messages reached it: not subscribed to the publish destination`,
        evidence,
      ),
    ];
  },
};
