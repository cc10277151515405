import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Clock, TimerHandle } from '@racedata/core';

export type WaitKind = 'hold' | 'delay';

/** What a waiting upgrade's client may send before its handshake is answered; more cuts it. */
const EARLY_BYTES_MAX = 64 * 1024;

interface Waiting {
  readonly ruleId: string;
  readonly kind: WaitKind;
  /** Lets the request go on to the simulator now (unless its client is gone). */
  release(): void;
}

/**
 * The requests and upgrades hold and delay rules keep waiting. Each is forgotten, its timer
 * cancelled and its listener removed, the moment its client closes the connection: a client
 * that gives up must not leave a closure, a socket and (for delay) a timer of up to 24 h behind
 * until the rule goes. Removing a rule lets its requests go on; a delay rule used up by its own
 * last firing is not removed that way, so the request it delays still waits its time.
 */
export class FaultWaits {
  private readonly waiting = new Set<Waiting>();

  constructor(private readonly clock: Clock) {}

  /** How many wait now, by kind (GET /metrics). */
  counts(): Record<WaitKind, number> {
    const counts = { hold: 0, delay: 0 };
    for (const entry of this.waiting) counts[entry.kind]++;
    return counts;
  }

  get size(): number {
    return this.waiting.size;
  }

  /**
   * Keeps an HTTP request waiting: until its rule is removed (hold), or `ms` on the simulator's
   * clock (delay). The HTTP server goes on reading the socket, so the response closes when the
   * client goes.
   */
  waitRequest(ruleId: string, kind: WaitKind, ms: number, res: ServerResponse, proceed: () => void): void {
    if (res.destroyed) return;
    const onClose = () => entry.forget();
    const entry = this.add(
      ruleId,
      kind,
      ms,
      () => {
        res.off('close', onClose);
        return !res.destroyed;
      },
      proceed,
    );
    res.once('close', onClose);
  }

  /**
   * The same for a WebSocket upgrade. Nothing reads an upgraded socket until the WebSocket
   * server takes it, so a client hanging up would go unseen: the socket is read while it waits
   * (a client sends nothing before its handshake is answered; the little that may come early is
   * handed back), and its end, which an HTTP server's half-open socket does not turn into a
   * close by itself, is taken as the client gone.
   */
  waitUpgrade(ruleId: string, kind: WaitKind, ms: number, socket: Duplex, proceed: () => void): void {
    if (socket.destroyed) return;
    const early: Buffer[] = [];
    let earlyBytes = 0;
    const onData = (chunk: Buffer) => {
      earlyBytes += chunk.length;
      if (earlyBytes > EARLY_BYTES_MAX) socket.destroy();
      else early.push(chunk);
    };
    const onEnd = () => socket.destroy();
    const onClose = () => entry.forget();
    const entry = this.add(
      ruleId,
      kind,
      ms,
      () => {
        socket.off('data', onData);
        socket.off('end', onEnd);
        socket.off('close', onClose);
        if (socket.destroyed) return false;
        socket.pause();
        if (early.length > 0) socket.unshift(Buffer.concat(early));
        // Neither paused nor flowing, as the HTTP server hands an upgraded socket over: the
        // WebSocket server's 'data' listener starts the flow (a paused socket it never reads).
        (socket as { readableFlowing: boolean | null }).readableFlowing = null;
        return true;
      },
      proceed,
    );
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onClose);
    socket.resume();
  }

  /** `stop` ends the watching of the client and says whether it is still there. */
  private add(
    ruleId: string,
    kind: WaitKind,
    ms: number,
    stop: () => boolean,
    proceed: () => void,
  ): { forget(): void } {
    let timer: TimerHandle | undefined;
    const finish = (go: boolean) => {
      if (!this.waiting.delete(entry)) return;
      timer?.cancel();
      if (stop() && go) proceed();
    };
    const entry: Waiting = { ruleId, kind, release: () => finish(true) };
    this.waiting.add(entry);
    if (kind === 'delay') timer = this.clock.setTimeout(() => finish(true), ms);
    return { forget: () => finish(false) };
  }

  /** The rule was removed: what it keeps waiting (only of `kind`, when given) goes on now. */
  releaseRule(ruleId: string, kind?: WaitKind): void {
    for (const entry of [...this.waiting]) {
      if (entry.ruleId === ruleId && (kind === undefined || entry.kind === kind)) entry.release();
    }
  }

  /** Everything goes on now (reset, every rule removed, the simulator closing). */
  releaseAll(): void {
    for (const entry of [...this.waiting]) entry.release();
  }
}
