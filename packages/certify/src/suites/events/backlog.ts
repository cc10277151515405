/**
 * Reading the backlog-complete outcome: which of the backlog's eventIds each page carried, and
 * whether every page that said hasMore was followed at once from its last eventId.
 */
import { LONG_POLL_LIMITS as L } from '../long-poll/limits';
import { followerOf, type RequestEvent } from '../long-poll/requests';
import { sentLastEventId } from './cursor';

export interface BacklogReading {
  /** Pages (200 answers) that carried any of the backlog, in the order they started. */
  readonly pages: readonly RequestEvent[];
  readonly missing: readonly number[];
  readonly reread: readonly number[];
  /** The first page with hasMore that was not followed as it should be, and why. */
  readonly unfollowed?: { readonly page: RequestEvent; readonly next?: RequestEvent; readonly why: string };
}

export function readBacklog(backlog: readonly number[], polls: readonly RequestEvent[]): BacklogReading {
  const wanted = new Set(backlog);
  const counts = new Map<number, number>();
  const pages: RequestEvent[] = [];
  for (const poll of polls) {
    if (poll.status !== 200) continue;
    const ids = (poll.answered?.eventIds ?? []).filter((id) => wanted.has(id));
    if (ids.length === 0) continue;
    pages.push(poll);
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const missing = backlog.filter((id) => !counts.has(id));
  const reread = backlog.filter((id) => (counts.get(id) ?? 0) > 1);
  return { pages, missing, reread, unfollowed: firstUnfollowed(pages, polls) };
}

function firstUnfollowed(
  pages: readonly RequestEvent[],
  polls: readonly RequestEvent[],
): BacklogReading['unfollowed'] {
  for (const page of pages) {
    if (!page.answered?.hasMore) continue;
    const ids = page.answered.eventIds;
    const lastId = ids[ids.length - 1];
    const next = followerOf(polls, page);
    if (!next) return { page, why: 'asked for no more after a page that said hasMore' };
    const gap = Math.max(0, next.at - page.endedAt);
    if (gap > L.hasMoreWithinMs) {
      return {
        page,
        next,
        why: `waited ${gap} ms after a page that said hasMore (limit ${L.hasMoreWithinMs} ms)`,
      };
    }
    const sent = sentLastEventId(next);
    if (lastId !== undefined && Number(sent) !== lastId) {
      return {
        page,
        next,
        why: `asked with lastEventId=${sent ?? '(none)'} after a page ending at ${lastId}`,
      };
    }
  }
  return undefined;
}
