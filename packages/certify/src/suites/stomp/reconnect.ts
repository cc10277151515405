import type { Scenario } from '../../types';
import { note, secs, verdict } from '../session/evidence';
import { closeAndAwaitReopen, RECONNECT_WITHIN_MS } from '../session/reclose';
import { STOMP_CHECKS } from './checks';
import { PROBE_CHANNEL, probeSubscription } from './probe';

/**
 * Added to the 5 s of the rule for the probe itself: an injection and a journal read every
 * 250 ms, each a round trip on two shared cores.
 */
export const PROBE_MARGIN_MS = 1_000;
/** How long a new client has to subscribe before certify closes its session. */
const SUBSCRIBED_WITHIN_MS = 10_000;

/** The server closes the session: the client must be back, subscribed, within 5 s. */
export const reconnectScenario: Scenario = {
  name: 'server closes the session',
  checks: [STOMP_CHECKS.reconnectAfterClose],
  async run(ctx) {
    const info = STOMP_CHECKS.reconnectAfterClose;
    // The session closed must be a subscribed one: closed before its first SUBSCRIBE, a client
    // that subscribes only once would subscribe on the next session and look like it resubscribed.
    try {
      const before = await probeSubscription(ctx, 'before-close', ctx.now() + SUBSCRIBED_WITHIN_MS);
      if (!before.delivered) {
        return [
          verdict(
            info,
            'skip',
            'the client never subscribed, so there was no subscription to renew (see subscribes)',
          ),
        ];
      }
    } catch (err) {
      return [verdict(info, 'skip', `could not inject or read the journal: ${String(err)}`)];
    }
    const result = await closeAndAwaitReopen(ctx, info, 'stomp');
    if (result.failure) return [result.failure];
    const deadline = result.closedAt + RECONNECT_WITHIN_MS + PROBE_MARGIN_MS;
    let outcome;
    try {
      outcome = await probeSubscription(ctx, 'resubscribed', Math.max(deadline, ctx.now() + 500));
    } catch (err) {
      return [verdict(info, 'skip', `could not inject or read the journal: ${String(err)}`, result.evidence)];
    }
    const evidence = [
      ...result.evidence,
      ...outcome.injected.map((p) => note(p.at, `injected NonDurable ${PROBE_CHANNEL} payloadKey=${p.key}`)),
    ];
    const reopened = (result.reopenedAt as number) - result.closedAt;
    if (outcome.delivered) {
      const took = outcome.delivered.at - result.closedAt;
      evidence.push(note(outcome.delivered.at, `journal: ${outcome.delivered.key} delivered over stomp`));
      return [
        verdict(
          info,
          'pass',
          `reconnected after ${secs(reopened)} and was subscribed again ${secs(took)} after the close`,
          evidence,
        ),
      ];
    }
    return [
      verdict(
        info,
        'fail',
        `reconnected after ${secs(reopened)} but never subscribed again: none of ${outcome.injected.length} NonDurable messages reached it`,
        evidence,
      ),
    ];
  },
};
