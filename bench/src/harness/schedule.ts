import { sleep } from './http';
import type { PostLog } from './ledger';
import { monoMs } from './processes';

/**
 * Open loop: calls `fire(k)` for k = 0..count-1 at `rate` a second, call k due at t0 + k / rate
 * (t0 one interval from now), never waiting for what a call started, so a server that falls
 * behind shows as latency and lost messages, not as a slower schedule. Resolves after the last
 * call with t0 (monoMs), the interval and how late the calls were on average (ms).
 */
export async function onSchedule(rate: number, count: number, fire: (k: number) => void) {
  const interval = 1000 / rate;
  const t0 = monoMs() + interval;
  let lateMs = 0;
  for (let k = 0; k < count; k++) {
    const wait = t0 + k * interval - monoMs();
    if (wait > 0) await sleep(wait);
    lateMs += monoMs() - (t0 + k * interval);
    fire(k);
  }
  return { t0, interval, lagMs: lateMs / Math.max(1, count) };
}

type Send = (seq: number, target: string) => Promise<{ status: number }>;
type Target = (k: number) => string;

/**
 * Posts `count` messages at `rate` a second into `posts` (the soak's and the abuse run's
 * messages: message `seq` to `target(k)`), each settled by its answer's status (0: no answer);
 * at most 32 unanswered at once, so a simulator that stops answering piles up nothing.
 */
export async function postAtRate(posts: PostLog, rate: number, count: number, send: Send, target: Target) {
  const unanswered = new Set<Promise<void>>();
  await onSchedule(rate, count, (k) => {
    if (posts.count >= posts.max || unanswered.size >= 32) return;
    const seq = posts.next(target(k));
    const status = send(seq, target(k)).catch(() => ({ status: 0 }));
    const answered = status.then((res) => posts.settle(seq, res.status));
    unanswered.add(answered);
    void answered.then(() => unanswered.delete(answered));
  });
  await Promise.all(unanswered);
}

/** Runs `task(i)` for i = 0..count-1, `n` at a time. */
export async function inParallel(n: number, count: number, task: (i: number) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: n }, worker));
}
