import type { Logger } from '@racedata/core';
import type { TrafficEvent, TrafficOf } from '../types';

/**
 * The logger the certify simulator is given: it turns LOG_REQUESTS' session lines ("session
 * open"; "session connected" with what a STOMP CONNECT negotiated; "session closed" with its
 * code) into traffic events and drops every other line. Those lines name the user by key only;
 * nothing else is kept.
 */
export function sessionLogger(record: (event: TrafficEvent) => void, now: () => number): Logger {
  const info = (obj: object | string, msg?: string) => {
    if (typeof obj !== 'object' || obj === null) return;
    const line = obj as SessionLine;
    if (typeof line.user !== 'string' || typeof line.transport !== 'string') return;
    if (msg === 'session open') {
      record({ kind: 'session-open', at: now(), user: line.user, transport: line.transport });
    } else if (msg === 'session connected') {
      const connected = stompConnected(line, now());
      if (connected) record(connected);
    } else if (msg === 'session closed' && typeof line.code === 'number') {
      record({
        kind: 'session-closed',
        at: now(),
        user: line.user,
        transport: line.transport,
        code: line.code,
      });
    }
  };
  const ignore = () => undefined;
  const logger: Logger = { debug: ignore, info, warn: ignore, error: ignore, child: () => logger };
  return logger;
}

interface SessionLine {
  readonly user?: unknown;
  readonly transport?: unknown;
  readonly code?: unknown;
  readonly version?: unknown;
  readonly sendEveryMs?: unknown;
  readonly expectEveryMs?: unknown;
}

/** Undefined for a line of another transport or a shape this version does not know. */
function stompConnected(line: SessionLine, at: number): TrafficOf<'stomp-connected'> | undefined {
  const { user, transport, version, sendEveryMs, expectEveryMs } = line;
  if (transport !== 'stomp' || typeof user !== 'string' || typeof version !== 'string') return undefined;
  if (!isMs(sendEveryMs) || !isMs(expectEveryMs)) return undefined;
  return { kind: 'stomp-connected', at, user, version, sendEveryMs, expectEveryMs };
}

function isMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
