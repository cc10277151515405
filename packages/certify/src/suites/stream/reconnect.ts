import type { Scenario } from '../../types';
import { secs, verdict } from '../session/evidence';
import { closeAndAwaitReopen } from '../session/reclose';
import { STREAM_CHECKS } from './checks';

export const reconnectScenario: Scenario = {
  name: 'server closes the socket',
  checks: [STREAM_CHECKS.reconnectAfterClose],
  async run(ctx) {
    const info = STREAM_CHECKS.reconnectAfterClose;
    const result = await closeAndAwaitReopen(ctx, info, 'event-stream');
    if (result.failure) return [result.failure];
    const took = (result.reopenedAt as number) - result.closedAt;
    return [
      verdict(
        info,
        'pass',
        `reconnected and authenticated ${secs(took)} after the server closed its session`,
        result.evidence,
      ),
    ];
  },
};
