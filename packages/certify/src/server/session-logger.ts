import type { Logger } from '@racedata/core';
import type { TrafficEvent } from '../types';

/**
 * The logger the certify simulator is given: it turns LOG_REQUESTS' session lines ("session
 * open", "session closed" with user, transport and code) into traffic events and drops every
 * other line. Those lines name the user by key only; nothing else is kept.
 */
export function sessionLogger(record: (event: TrafficEvent) => void, now: () => number): Logger {
  const info = (obj: object | string, msg?: string) => {
    if (typeof obj !== 'object' || obj === null) return;
    const line = obj as { user?: unknown; transport?: unknown; code?: unknown };
    if (typeof line.user !== 'string' || typeof line.transport !== 'string') return;
    if (msg === 'session open') {
      record({ kind: 'session-open', at: now(), user: line.user, transport: line.transport });
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
