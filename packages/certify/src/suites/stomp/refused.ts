import { STOMP_PATHS } from '@racedata/legacy-sim';
import type { Scenario } from '../../types';
import { gradeRefusal } from '../session/refused';
import { STOMP_CHECKS } from './checks';

export const refusedScenario: Scenario = {
  name: 'upgrades refused',
  checks: [STOMP_CHECKS.noHotLoop],
  async run(ctx) {
    return [await gradeRefusal(ctx, STOMP_CHECKS.noHotLoop, { transport: 'stomp', paths: STOMP_PATHS })];
  },
};
