import type { Scenario } from '../../types';
import { echoSkipped, gradeEchoes, type Sent } from '../session/echo';
import { note, verdict } from '../session/evidence';
import { awaitOpen, openCountAt } from '../session/sessions';
import { STOMP_CHECKS } from './checks';
import { newPayloadKey, PROBE_CHANNEL, probeSubscription, probeXml } from './probe';

/** Messages sent; a gap between them so each is its own delivery. */
export const TRANSIENT_MESSAGES = 5;
const GAP_MS = 100;

/** NonDurable messages sent while the client is subscribed: each payloadKey must come back on its stdout. */
export const transientScenario: Scenario = {
  name: 'transient messages',
  checks: [STOMP_CHECKS.receivesAll],
  async run(ctx) {
    const info = STOMP_CHECKS.receivesAll;
    if (!ctx.echo) return [echoSkipped(info)];
    const open = await awaitOpen(ctx, 'stomp', 10_000);
    if (!open) return [verdict(info, 'skip', 'no STOMP session to send to (see connects-with-bearer)')];
    const since = ctx.now();
    const sent: Sent[] = [];
    try {
      // Graded messages go only to a session known to be subscribed.
      const probe = await probeSubscription(ctx, 'receives-all-probe', ctx.now() + 5_000);
      if (!probe.delivered) return [verdict(info, 'skip', 'the client is not subscribed (see subscribes)')];
      for (let n = 0; n < TRANSIENT_MESSAGES && !ctx.signal.aborted; n++) {
        const key = newPayloadKey(`receives-all-${n + 1}`);
        const at = ctx.now();
        await ctx.control.inject(PROBE_CHANNEL, false, probeXml('receives-all'), key);
        sent.push({ key, at, connected: openCountAt(ctx, 'stomp', at) > 0 });
        await ctx.wait(GAP_MS);
      }
    } catch (err) {
      return [verdict(info, 'skip', `could not send the messages: ${String(err)}`)];
    }
    const setup = [
      note(
        since,
        `sent ${TRANSIENT_MESSAGES} NonDurable messages on ${PROBE_CHANNEL} with their own payloadKeys`,
      ),
    ];
    return [await gradeEchoes(ctx, info, sent, since, setup)];
  },
};
