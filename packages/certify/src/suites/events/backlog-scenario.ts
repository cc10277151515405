/**
 * backlog-complete: while a hold rule keeps the client's next poll waiting, certify posts more
 * than three pages of events (pages as big as the client asks for), then lets the poll go: the
 * client finds a back-dated backlog and must page through it by hasMore and lastEventId.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { LONG_POLL_LIMITS as L } from '../long-poll/limits';
import { checkResult, defineScenario, withFault } from '../long-poll/scenario-kit';
import { clientRequests, nextClientRequest, noteEvidence, requestEvidence } from '../long-poll/requests';
import { readBacklog } from './backlog';
import { BACKLOG_COMPLETE as info } from './check-info';
import { delivers, isEventsPoll, postEvent } from './events-kind';

/** The simulator's EVENTS_DEFAULT_LIMIT and EVENTS_MAX_LIMIT (docs: shared spec decisions.md). */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;
/** Posting more would take longer than a suite may; a client asking for bigger pages is a skip. */
const MAX_BACKLOG = 3500;
/** Posts in flight at once while the backlog is built. */
const POSTS_AT_ONCE = 8;

/** The page size the client asks for, as the simulator takes it (0 or none: the default). */
function pageSize(ctx: ScenarioContext): number {
  const polls = clientRequests(ctx).filter(isEventsPoll);
  const limit = Number(polls[polls.length - 1]?.query['limit'] ?? 0);
  if (!Number.isInteger(limit) || limit <= 0) return DEFAULT_LIMIT;
  return Math.min(limit, MAX_LIMIT);
}

async function postBacklog(ctx: ScenarioContext, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count && !ctx.signal.aborted; start += POSTS_AT_ONCE) {
    const batch = Array.from({ length: Math.min(POSTS_AT_ONCE, count - start) }, () => postEvent(ctx));
    for (const posted of await Promise.all(batch)) if (posted.eventId !== undefined) ids.push(posted.eventId);
  }
  return ids.sort((a, b) => a - b);
}

export const backlogScenario: Scenario = defineScenario('pages through a backlog', [info], async (ctx) => [
  await play(ctx),
]);

async function play(ctx: ScenarioContext): Promise<CheckResult> {
  const size = pageSize(ctx);
  const count = Math.min(Math.ceil(size * 3.5), MAX_BACKLOG);
  const heldAt = ctx.now();
  const hold = { match: { transport: 'events' }, action: { type: 'hold' }, forMs: 60_000 };
  const backlog = await withFault(ctx, hold, () => postBacklog(ctx, count));
  const releasedAt = ctx.now();
  const evidence: Evidence[] = [
    noteEvidence(
      heldAt,
      `certify held the client's polls and posted ${backlog.length} events (${backlog[0]}..${backlog[backlog.length - 1]})`,
    ),
    noteEvidence(releasedAt, 'certify let the held poll go'),
  ];
  const lastId = backlog[backlog.length - 1]!;
  const pagesExpected = Math.ceil(backlog.length / size);
  await nextClientRequest(
    ctx,
    (event) => delivers(event, lastId),
    L.deliveryTimeoutMs + pagesExpected * 1000,
  );
  const reading = readBacklog(backlog, clientRequests(ctx).filter(isEventsPoll));
  evidence.push(...reading.pages.slice(0, 6).map((page) => requestEvidence(page)));
  if (reading.missing.length > 0) {
    return checkResult(
      info,
      'fail',
      `never fetched ${reading.missing.length} of the ${backlog.length} events (first: ${reading.missing[0]})`,
      evidence,
    );
  }
  if (reading.reread.length > 0) {
    return checkResult(
      info,
      'fail',
      `fetched ${reading.reread.length} events more than once (first: ${reading.reread[0]})`,
      evidence,
    );
  }
  if (reading.unfollowed) {
    const { next, why } = reading.unfollowed;
    if (next) evidence.push(requestEvidence(next, why));
    return checkResult(info, 'fail', why, evidence);
  }
  if (reading.pages.length < 3) {
    return checkResult(
      info,
      'skip',
      `the client's pages (limit ${size}) took the ${backlog.length} events in ${reading.pages.length} pages, fewer than three`,
      evidence,
    );
  }
  return checkResult(
    info,
    'pass',
    `fetched all ${backlog.length} events in ${reading.pages.length} pages, following hasMore, none twice`,
    evidence,
  );
}
