import type { DayOptions } from '../model/options';
import { formatEdgeCases, formatMeetings } from '../model/options';
import type { EdgeCasePlacement, RaceDayPlan } from '../model/types';
import { seededRng } from '../random';
import { applyEdgeCase, type ApplyContext } from '../edge-cases/apply';
import { placeEdgeCases } from '../edge-cases/placement';
import { calendarCounts, meetingSlots, type MeetingCounts } from './calendar';
import { drawMeeting } from './meeting';
import { ordinaryScratchings } from './scratchings';

/** What `all` needs at least: three trot meetings for the meeting-level cases, a gallop one. */
const ALL_NEEDS: MeetingCounts = { trot: 3, gallop: 1 };

function countsFor(options: DayOptions): MeetingCounts {
  if (options.meetings !== 'auto') return options.meetings;
  const counts = calendarCounts(options.date, seededRng(options.seed, 'calendar'));
  if (options.edgeCases.mode !== 'all') return counts;
  return { trot: Math.max(counts.trot, ALL_NEEDS.trot), gallop: Math.max(counts.gallop, ALL_NEEDS.gallop) };
}

/**
 * A race day: the date's meetings (the calendar's or the option's), their races and fields, the
 * ordinary scratchings, then each edge case applied as the plan operation it is. Pure: the same
 * options give the same plan.
 */
export function generateDay(options: DayOptions): RaceDayPlan {
  const { date, seed } = options;
  const counts = countsFor(options);
  const slots = meetingSlots(date, counts, seededRng(seed, 'tracks'));
  const taken = new Set<string>();
  const meetings = slots.map((slot) =>
    drawMeeting(seededRng(seed, `meeting:${slot.track.id}`), date, slot, taken),
  );
  let plan: RaceDayPlan = {
    version: 1,
    date,
    seed,
    timeZone: 'Europe/Stockholm',
    meetingsOption: formatMeetings(options.meetings),
    edgeCasesOption: formatEdgeCases(options.edgeCases),
    meetings,
    edgeCases: [],
  };
  plan = ordinaryScratchings(plan, seededRng(seed, 'scratchings'));
  const spots = placeEdgeCases(plan, options.edgeCases, seededRng(seed, 'edge-cases'));
  const ctx: ApplyContext = { taken, claimed: new Map() };
  const placements: EdgeCasePlacement[] = [];
  spots.forEach((spot, i) => {
    const applied = applyEdgeCase(plan, spot, seededRng(seed, `edge:${i}:${spot.id}`), ctx);
    plan = applied.plan;
    placements.push(applied.placement);
  });
  return { ...plan, edgeCases: placements };
}
