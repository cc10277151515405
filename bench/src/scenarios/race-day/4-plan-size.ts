import { generateDay, planView } from '@racedata/race-day';
import { absoluteRow, round } from '../../harness/rows';
import type { Scenario } from '../../types';

export default {
  method: () => [
    'Plan size: the JSON of the plan as GET /_sim/race-day answers it and as the simulator holds it.',
  ],
  async run() {
    // The largest day: four trot meetings and a gallop one, every edge case.
    const meetings = { trot: 4, gallop: 1 };
    const plan = generateDay({ date: '2026-05-13', seed: 1, meetings, edgeCases: { mode: 'all' } });
    const view = Buffer.byteLength(JSON.stringify(planView(plan, Date.parse('2026-05-13T12:00:00Z'))));
    const held = Buffer.byteLength(JSON.stringify(plan));
    const mb = Math.max(view, held) / 1e6;
    const row = absoluteRow({
      scenario:
        'plan of the largest day (4 trot meetings, 1 gallop, every edge case): JSON as GET /_sim/race-day answers, and as held',
      ...{ unit: 'MB', ours: round(mb, 3), target: ['under 20 MB', mb < 20] },
      note: `${view} B as answered, ${held} B as held`,
    });
    return { rows: [row] };
  },
} satisfies Scenario;
