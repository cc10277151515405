import type { Evidence, TrafficEvent } from './types';

/**
 * One traffic event as report evidence, in the words the reports use everywhere:
 * `GET /customerapi/events?lastEventId=12 -> 200 (31 ms)`, `upgrade /customerapi/event-stream
 * (bearer)`, `session closed 4001 (event-stream)`. Scenarios use it so every suite reads alike.
 */
export function evidenceOf(event: TrafficEvent): Evidence {
  return { at: new Date(event.at).toISOString(), what: describeEvent(event) };
}

export function describeEvent(event: TrafficEvent): string {
  switch (event.kind) {
    case 'request': {
      const query = new URLSearchParams(event.query).toString();
      const ms = Math.max(0, Math.round(event.endedAt - event.at));
      const carried = event.answered?.eventIds.length
        ? ` [eventIds ${idRange(event.answered.eventIds)}${event.answered.hasMore ? ', hasMore' : ''}]`
        : '';
      return `${event.method} ${event.path}${query ? `?${query}` : ''} -> ${event.status} (${ms} ms)${carried}`;
    }
    case 'upgrade':
      return `upgrade ${event.path} (${event.auth})`;
    case 'session-open':
      return `session open (${event.transport})`;
    case 'session-closed':
      return `session closed ${event.code} (${event.transport})`;
    case 'stomp-connected':
      return `STOMP ${event.version} CONNECT answered (${describeHeartBeats(event)})`;
    case 'client-line':
      return `client printed ${event.line}`;
    case 'client-exit':
      return event.signal !== null
        ? `client killed by ${event.signal}`
        : `client exited with code ${event.code}`;
  }
}

/** `1-3, 7` for a page's eventIds: short enough for one line, exact enough to see a gap. */
function idRange(ids: readonly number[]): string {
  const parts: string[] = [];
  let start = ids[0] ?? 0;
  let prev = start;
  for (const id of [...ids.slice(1), Number.NaN]) {
    if (id === prev + 1) {
      prev = id;
      continue;
    }
    parts.push(start === prev ? `${start}` : `${start}-${prev}`);
    start = id;
    prev = id;
  }
  return parts.join(', ');
}

/** What a CONNECT negotiated, in the words of STOMP 1.2 "Heart-beating". */
export function describeHeartBeats(event: {
  readonly expectEveryMs: number;
  readonly sendEveryMs: number;
}): string {
  const every = (ms: number) => (ms === 0 ? 'none' : `every ${ms} ms`);
  return `heart-beats from the client ${every(event.expectEveryMs)}, from the server ${every(event.sendEveryMs)}`;
}
