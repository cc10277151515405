/** follows-last-event-id, graded over every events poll of the run. */
import type { CheckResult, Evidence } from '../../types';
import { checkResult } from '../long-poll/scenario-kit';
import { requestEvidence, type RequestEvent } from '../long-poll/requests';
import type { WholeRunCheck } from '../long-poll/whole-run-scenario';
import { FOLLOWS_LAST_EVENT_ID } from './check-info';
import { cursorProblem, highestDelivered } from './cursor';
import { isEventsPoll } from './events-kind';

function grade(requests: readonly RequestEvent[], played: readonly Evidence[]): CheckResult {
  const polls = requests.filter(isEventsPoll);
  const graded = polls.filter((poll) => highestDelivered(polls, poll.at, poll) !== undefined);
  if (graded.length === 0) {
    return checkResult(FOLLOWS_LAST_EVENT_ID, 'skip', 'no poll came after an event was delivered', played);
  }
  for (const poll of graded) {
    const problem = cursorProblem(poll, polls);
    if (!problem) continue;
    const earlier = polls.filter(
      (other) => other !== poll && other.endedAt <= poll.at && other.status === 200,
    );
    const evidence = [...played];
    const lastPage = earlier[earlier.length - 1];
    if (lastPage) evidence.push(requestEvidence(lastPage));
    evidence.push(requestEvidence(poll, problem));
    return checkResult(FOLLOWS_LAST_EVENT_ID, 'fail', problem, evidence);
  }
  const last = graded[graded.length - 1]!;
  return checkResult(
    FOLLOWS_LAST_EVENT_ID,
    'pass',
    `each of ${graded.length} polls after a delivery carried the highest eventId delivered before it`,
    [...played, requestEvidence(last)],
  );
}

export const followsLastEventId: WholeRunCheck = { info: FOLLOWS_LAST_EVENT_ID, grade };
