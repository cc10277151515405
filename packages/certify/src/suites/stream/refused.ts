import { EVENT_STREAM_PATH } from '@racedata/json-sim';
import type { Scenario } from '../../types';
import { gradeRefusal } from '../session/refused';
import { STREAM_CHECKS } from './checks';

export const refusedScenario: Scenario = {
  name: 'upgrades refused',
  checks: [STREAM_CHECKS.noHotLoop],
  async run(ctx) {
    return [
      await gradeRefusal(ctx, STREAM_CHECKS.noHotLoop, {
        transport: 'event-stream',
        paths: [EVENT_STREAM_PATH],
      }),
    ];
  },
};
