import type { SuiteDefinition } from '../../types';
import { connectScenario } from './connect';
import { pingsScenario } from './pings';
import { reauthScenario } from './reauth';
import { reconnectScenario } from './reconnect';
import { refusedScenario } from './refused';
import { transientScenario } from './transient';

/**
 * The JSON event-stream consumer. Transient messages go first, while nothing is refused; the
 * scenarios that close the session follow, the one that refuses upgrades last.
 */
export const STREAM_SUITE: SuiteDefinition = {
  suite: 'stream',
  simulator: 'json',
  scenarios: [
    connectScenario,
    pingsScenario,
    transientScenario,
    reconnectScenario,
    reauthScenario,
    refusedScenario,
  ],
};

export { STREAM_CHECKS } from './checks';
