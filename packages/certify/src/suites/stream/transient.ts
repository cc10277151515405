import type { Scenario } from '../../types';
import { echoSkipped, gradeEchoes, type Sent } from '../session/echo';
import { note, verdict } from '../session/evidence';
import { awaitOpen, nextClose, openCountAt } from '../session/sessions';
import { STREAM_CHECKS } from './checks';
import { StreamWitness } from './witness';

/** Messages sent; a gap between them so each is its own delivery. */
export const TRANSIENT_MESSAGES = 5;
const GAP_MS = 100;

/** Transient messages sent while the client is connected: each Data id must come back on its stdout. */
export const transientScenario: Scenario = {
  name: 'transient messages',
  checks: [STREAM_CHECKS.receivesAll],
  async run(ctx) {
    const info = STREAM_CHECKS.receivesAll;
    if (!ctx.echo) return [echoSkipped(info)];
    const open = await awaitOpen(ctx, 'event-stream', 10_000);
    if (!open) return [verdict(info, 'skip', 'no open session to send to (see reconnect-after-close)')];
    let witness: StreamWitness;
    try {
      witness = await StreamWitness.open(ctx);
    } catch (err) {
      return [verdict(info, 'skip', `could not watch the messages sent: ${(err as Error).message}`)];
    }
    const since = ctx.now();
    const sent: Sent[] = [];
    try {
      for (let n = 0; n < TRANSIENT_MESSAGES && !ctx.signal.aborted; n++) {
        const at = ctx.now();
        await ctx.control.postJson({
          channel: witness.channel,
          date: new Date(at).toISOString().slice(0, 10),
          payload: { certify: 'receives-all', n },
        });
        const id = await witness.idOf(n, 2_000);
        if (id === undefined)
          return [verdict(info, 'skip', `the witness never saw message ${n + 1} on ${witness.channel}`)];
        // The witness holds one of the user's sessions: the client is connected when another is open.
        sent.push({ key: id, at, connected: openCountAt(ctx, 'event-stream', at) > 1 });
        await ctx.wait(GAP_MS);
      }
    } catch (err) {
      return [verdict(info, 'skip', `could not send the messages: ${String(err)}`)];
    } finally {
      const closing = ctx.now();
      await witness.close();
      // Its close is in the traffic before the next scenario counts sessions.
      await nextClose(ctx, 'event-stream', closing, 1_000);
    }
    const setup = [
      note(
        since,
        `sent ${TRANSIENT_MESSAGES} messages on ${witness.channel}; certify's own session saw their ids`,
      ),
    ];
    return [await gradeEchoes(ctx, info, sent, since, setup)];
  },
};
