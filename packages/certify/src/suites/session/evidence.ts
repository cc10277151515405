import { describeHeartBeats } from '../../evidence';
import type { CheckInfo, CheckResult, CheckStatus, Evidence, TrafficEvent } from '../../types';

/** One line a developer reads in a report for what the certify server saw. */
export function describeEvent(event: TrafficEvent): string {
  switch (event.kind) {
    case 'request': {
      const query = new URLSearchParams(event.query as Record<string, string>).toString();
      const took = Math.max(0, event.endedAt - event.at);
      return `${event.method} ${event.path}${query ? `?${query}` : ''} -> ${event.status} (${took} ms)`;
    }
    case 'upgrade':
      return `upgrade ${event.path} (auth: ${event.auth}${event.user ? `, user ${event.user}` : ''})`;
    case 'session-open':
      return `${event.transport} session open for ${event.user}`;
    case 'session-closed':
      return `${event.transport} session of ${event.user} closed ${event.code}`;
    case 'stomp-connected':
      return `STOMP ${event.version} session of ${event.user} connected (${describeHeartBeats(event)})`;
    case 'client-line':
      return `client printed "${event.line.slice(0, 80)}"`;
    case 'client-exit':
      return `client exited (code ${event.code ?? 'none'}, signal ${event.signal ?? 'none'})`;
  }
}

export function evidenceOf(event: TrafficEvent): Evidence {
  return { at: new Date(event.at).toISOString(), what: describeEvent(event) };
}

/** An observation of the scenario's own (a control call, a message it sent). */
export function note(at: number, what: string): Evidence {
  return { at: new Date(at).toISOString(), what };
}

/** Evidence is for reading: the first and last few of a long run, the middle counted. */
export function bounded(evidence: readonly Evidence[], max = 12): Evidence[] {
  if (evidence.length <= max) return [...evidence];
  const head = evidence.slice(0, max - 4);
  const tail = evidence.slice(-3);
  const skipped = evidence.length - head.length - tail.length;
  const at = tail[0]?.at ?? head[head.length - 1]?.at ?? new Date(0).toISOString();
  return [...head, { at, what: `... ${skipped} more like these` }, ...tail];
}

export function verdict(
  info: CheckInfo,
  status: CheckStatus,
  summary: string,
  evidence: readonly Evidence[] = [],
): CheckResult {
  const sorted = [...evidence].sort((a, b) => a.at.localeCompare(b.at));
  return { id: info.id, required: info.required, status, summary, evidence: bounded(sorted) };
}

/** Seconds with one decimal, as summaries state durations. */
export function secs(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
