import type { SuiteDefinition } from '../../types';
import { connectScenario } from './connect';
import { pingsScenario } from './pings';
import { reauthScenario } from './reauth';
import { reconnectScenario } from './reconnect';
import { refusedScenario } from './refused';
import { restartScenario } from './restart';
import { silentScenario } from './silent';
import { transientScenario } from './transient';
import { unknownStreamScenario } from './unknown';

/**
 * The JSON event-stream consumer. Transient messages go first, while nothing is refused; the
 * scenarios that silence or close the session follow, the one that refuses upgrades last.
 */
export const STREAM_SUITE: SuiteDefinition = {
  suite: 'stream',
  simulator: 'json',
  scenarios: [
    connectScenario,
    pingsScenario,
    transientScenario,
    unknownStreamScenario,
    silentScenario,
    reconnectScenario,
    reauthScenario,
    restartScenario,
    refusedScenario,
  ],
};

export { STREAM_CHECKS } from './checks';
