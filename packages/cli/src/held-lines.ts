import type { LogDestination } from '@racedata/core';

/** How long a line may be held for others to join it. */
export const HOLD_MS = 10;
/** Held characters written at once, however recent: a flood never builds up unbounded. */
export const MAX_HELD_CHARS = 64 * 1024;

/** Every destination holding lines now, written out when the process exits. */
const holding = new Set<HeldLines>();
let exitHooked = false;

/**
 * A log destination that holds lines for a few milliseconds and writes them to `out` together, in
 * the order they came. A simulator logging every request (LOG_REQUESTS) writes a line per
 * request, and each line's own write to stderr (a pipe or a file: Node writes both
 * synchronously) cost three times what formatting it did; lines now leave in one write per
 * HOLD_MS, or per MAX_HELD_CHARS under a flood. A plain array, not a Writable: the stream
 * machinery cost a line more than the write it saved. Whatever is held is written before the
 * process exits, however it exits (process.exit included).
 */
export class HeldLines implements LogDestination {
  private held: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: LogDestination,
    private readonly holdMs = HOLD_MS,
  ) {
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', () => holding.forEach((lines) => lines.flush()));
    }
  }

  write(line: string): void {
    this.held.push(line);
    this.chars += line.length;
    if (this.chars > MAX_HELD_CHARS) {
      this.flush();
    } else if (this.timer === undefined) {
      holding.add(this);
      this.timer = setTimeout(() => this.flush(), this.holdMs);
      // Held lines never keep a process alive: the exit hook writes them.
      this.timer.unref();
    }
  }

  /** Writes whatever is held now. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    holding.delete(this);
    if (this.held.length === 0) return;
    const text = this.held.length === 1 ? (this.held[0] as string) : this.held.join('');
    this.held = [];
    this.chars = 0;
    this.out.write(text);
  }
}
