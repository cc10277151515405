import type { Logger } from '../logger';

/** A client connection holding frames until the burst they came in ends. */
export interface HeldFrames {
  /** Writes what it holds, in one write when it can; nothing when it holds nothing. */
  flushHeld(): void;
}

/**
 * Fan-out in bursts: a connection handed a message does not write it at once, but holds it
 * until the event loop's turn ends (setImmediate), and then writes every frame it was handed in
 * that turn in one write. A message fanned out to a thousand clients costs a thousand writes
 * either way; but when several messages arrive in one turn (posts read together because the
 * server is busy, a replay's batch), each client gets them all in one write instead of one each,
 * so a server that falls behind catches up instead of falling further behind. The wait adds no
 * latency of its own: the turn's other callbacks run first, as they did before any write.
 */
export class Bursts {
  private held: HeldFrames[] = [];
  private scheduled = false;

  constructor(
    private readonly logger?: Logger,
    private readonly schedule: (flush: () => void) => void = setImmediate,
  ) {}

  /** `connection` was handed its first frame of this burst: it is flushed when the turn ends. */
  hold(connection: HeldFrames): void {
    this.held.push(connection);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(this.flush);
  }

  /** Writes every connection's held frames now (the end of the turn, or a test). */
  readonly flush = (): void => {
    this.scheduled = false;
    const held = this.held;
    this.held = [];
    for (const connection of held) {
      try {
        connection.flushHeld();
      } catch (err) {
        // One broken connection must not keep the others' frames from them.
        this.logger?.warn({ err }, 'writing held frames failed');
      }
    }
  };
}
