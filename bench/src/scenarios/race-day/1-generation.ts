import { addDays, dayTimeline, generateDay, planView, type DayOptions } from '@racedata/race-day';
import { absoluteRow, median, round } from '../../harness/rows';
import type { Scenario } from '../../types';

/** A day of two trot meetings and a gallop one (or the calendar's, with meetings 'auto'). */
const day = (date: string, seed: number, meetings: DayOptions['meetings'] = { trot: 2, gallop: 1 }) =>
  ({ date, seed, meetings, edgeCases: { mode: 'default' } }) satisfies DayOptions;

/** The plan and every message of the day: what the generator does for a day. */
function generate(options: DayOptions): { ms: number; messages: number } {
  const started = performance.now();
  const messages = dayTimeline(generateDay(options)).length;
  return { ms: performance.now() - started, messages };
}

export default {
  method: () => [
    'Generation: in the harness process (built race-day package), a warm-up day first; a day is its plan and every message of its timeline (the countdowns every second included), not written anywhere.',
    'Plan size: the JSON of the plan as GET /_sim/race-day answers it and as the simulator holds it.',
  ],
  async run({ config }) {
    const { days, month } = config.raceDay;
    generate(day('2026-05-13', 1));
    // A different seed each time.
    const singles = Array.from({ length: days }, (_, i) => generate(day(addDays('2026-05-13', i), 100 + i)));
    const ms = median(singles.map((s) => s.ms));
    const started = performance.now();
    let messages = 0;
    for (let i = 0; i < month; i++)
      messages += generate(day(addDays('2026-05-01', i), 500 + i, 'auto')).messages;
    const monthMs = performance.now() - started;
    const rows = [
      absoluteRow({
        scenario: `generate one day of three meetings (plan and every message), median of ${days}`,
        ...{ unit: 'ms', ours: ms, target: ['under 300 ms', ms < 300] },
        note: `${Math.round(median(singles.map((s) => s.messages)))} messages a day`,
      }),
      absoluteRow({
        scenario: `generate ${month} consecutive days (the calendar's meetings)`,
        ...{ unit: 'ms', ours: monthMs, note: `${messages} messages` },
        ...(month === 31 && { target: ['under 5 s', monthMs < 5000] as const }),
      }),
    ];
    // The largest day: four trot meetings and a gallop one, every edge case.
    const meetings = { trot: 4, gallop: 1 };
    const plan = generateDay({ date: '2026-05-13', seed: 1, meetings, edgeCases: { mode: 'all' } });
    const view = Buffer.byteLength(JSON.stringify(planView(plan, Date.parse('2026-05-13T12:00:00Z'))));
    const held = Buffer.byteLength(JSON.stringify(plan));
    const mb = Math.max(view, held) / 1e6;
    const size = absoluteRow({
      scenario:
        'plan of the largest day (4 trot meetings, 1 gallop, every edge case): JSON as GET /_sim/race-day answers, and as held',
      ...{ unit: 'MB', ours: round(mb, 3), target: ['under 20 MB', mb < 20] },
      note: `${view} B as answered, ${held} B as held`,
    });
    return { rows: [...rows, size] };
  },
} satisfies Scenario;
