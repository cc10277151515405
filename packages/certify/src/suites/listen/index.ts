/**
 * The listen suite: a legacy XML long-poll consumer of GET /customerapi/channels/listen,
 * certified against the legacy simulator with the same long-poll scenarios as events.
 */
import type { SuiteDefinition } from '../../types';
import { authScenario } from '../long-poll/auth-scenario';
import { backoffScenario } from '../long-poll/backoff-scenario';
import { reauthScenario } from '../long-poll/reauth-scenario';
import { repollScenario } from '../long-poll/repoll-scenario';
import { resetScenario } from '../long-poll/reset-scenario';
import { restartScenario } from '../long-poll/restart-scenario';
import { stalledScenario } from '../long-poll/stalled-scenario';
import { wholeRunScenario } from '../long-poll/whole-run-scenario';
import { listenKind } from './listen-kind';
import { unknownListenScenario } from './unknown-scenario';

export const LISTEN_SUITE: SuiteDefinition = {
  suite: 'listen',
  simulator: 'legacy',
  scenarios: [
    authScenario(listenKind),
    repollScenario(listenKind),
    reauthScenario(listenKind),
    backoffScenario(listenKind),
    resetScenario(listenKind),
    stalledScenario(listenKind),
    unknownListenScenario,
    restartScenario(listenKind),
    wholeRunScenario(listenKind),
  ],
};
