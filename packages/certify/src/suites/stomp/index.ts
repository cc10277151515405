import type { SuiteDefinition } from '../../types';
import { connectScenario } from './connect';
import { heartBeatsScenario } from './heart-beats';
import { reconnectScenario } from './reconnect';
import { refusedScenario } from './refused';
import { restartScenario } from './restart';
import { silentScenario } from './silent';
import { subscribeScenario } from './subscribe';
import { transientScenario } from './transient';
import { unknownStompScenario } from './unknown';

/**
 * The legacy STOMP consumer. The first session is probed and watched while nothing disturbs
 * it; the scenarios that silence or close it follow, the one that refuses upgrades last.
 */
export const STOMP_SUITE: SuiteDefinition = {
  suite: 'stomp',
  simulator: 'legacy',
  scenarios: [
    connectScenario,
    subscribeScenario,
    transientScenario,
    unknownStompScenario,
    heartBeatsScenario,
    silentScenario,
    reconnectScenario,
    restartScenario,
    refusedScenario,
  ],
};

export { STOMP_CHECKS } from './checks';
