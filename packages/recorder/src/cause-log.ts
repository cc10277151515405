import type { Clock, Logger } from '@racedata/core';

/** How long the same cause stays quiet after it was logged. */
export const CAUSE_LOG_INTERVAL_MS = 60_000;
/** Causes remembered; a hostile upstream inventing new ones (a new Location each time) stays bounded. */
const MAX_CAUSES = 256;

/**
 * Logs each cause once per interval: the first time at once, then nothing for that cause until
 * the interval has passed, when the next line says how often it happened meanwhile (`repeated`).
 * An upstream that fails a hundred times a second fills no disk with log lines.
 */
export class CauseLog {
  private readonly seen = new Map<string, { at: number; repeated: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly intervalMs = CAUSE_LOG_INTERVAL_MS,
  ) {}

  warn(cause: string, fields: Record<string, unknown>, message: string): void {
    const now = this.clock.now();
    const last = this.seen.get(cause);
    if (last !== undefined && now - last.at < this.intervalMs) {
      last.repeated++;
      return;
    }
    this.seen.delete(cause);
    this.seen.set(cause, { at: now, repeated: 0 });
    if (this.seen.size > MAX_CAUSES) this.seen.delete(this.seen.keys().next().value as string);
    this.logger.warn(last?.repeated ? { ...fields, repeated: last.repeated } : fields, message);
  }
}
