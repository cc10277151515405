import { progressLine, type RecordSummary } from '@racedata/recorder';

/** How often a terminal's progress line is redrawn. */
const TTY_REDRAW_MS = 1000;

export interface ProgressPrinter {
  /** Removes the rewriting line (if any) so the summary starts on a clean line. */
  stop(): void;
}

/**
 * The progress line on stdout: on a terminal one line rewritten in place every second, cut to the
 * terminal's width; anywhere else (a pipe, a file, a container log) a line every `intervalMs`.
 */
export function startProgress(
  stdout: NodeJS.WritableStream,
  intervalMs: number,
  progress: () => RecordSummary,
): ProgressPrinter {
  const tty = (stdout as { isTTY?: boolean }).isTTY === true;
  if (!tty && intervalMs === 0) return { stop: () => undefined };
  const draw = () => {
    const line = progressLine(progress());
    if (!tty) {
      stdout.write(`${line}\n`);
      return;
    }
    const width = (stdout as { columns?: number }).columns ?? 120;
    stdout.write(`\r\x1b[2K${line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line}`);
  };
  const timer = setInterval(draw, tty ? TTY_REDRAW_MS : intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      if (tty) stdout.write('\r\x1b[2K');
    },
  };
}
