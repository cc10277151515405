import { note } from '../session/evidence';
import { sessionRestartScenario } from '../session/restart';
import { PROBE_CHANNEL, probeSubscription } from './probe';
import { PROBE_MARGIN_MS } from './reconnect';

/**
 * The simulator goes away 5 s and comes back: the client must be back and subscribed again, as
 * a NonDurable probe delivered over STOMP shows (plus the probe's own margin, as after a close).
 */
export const restartScenario = sessionRestartScenario({
  suite: 'stomp',
  transport: 'stomp',
  async proveBack(ctx, deadline) {
    const outcome = await probeSubscription(
      ctx,
      'after-restart',
      Math.max(deadline + PROBE_MARGIN_MS, ctx.now() + 500),
    );
    const evidence = outcome.injected.map((p) =>
      note(p.at, `injected NonDurable ${PROBE_CHANNEL} payloadKey=${p.key}`),
    );
    if (outcome.delivered) {
      evidence.push(note(outcome.delivered.at, `journal: ${outcome.delivered.key} delivered over stomp`));
      return { ok: true, evidence };
    }
    return {
      ok: false,
      evidence,
      why: `never subscribed again: none of ${outcome.injected.length} NonDurable messages reached it in time`,
    };
  },
});
