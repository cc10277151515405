import { RECORDING_KINDS, type Clock, type Logger, type RecordingKind } from '@racedata/core';
import { CliError } from '../errors';
import { request, sleep, type FetchFn } from './target-http';

export interface TargetHealth {
  /** What the target says it is; undefined when its /health does not say. */
  readonly simulator: RecordingKind | undefined;
}

export interface WaitForTargetOptions {
  readonly fetch: FetchFn;
  readonly clock: Clock;
  readonly waitTimeoutMs: number;
  /** Pause between attempts. */
  readonly retryEveryMs?: number;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

function simulatorOf(body: string): RecordingKind | undefined {
  try {
    const parsed = JSON.parse(body) as { simulator?: unknown };
    return RECORDING_KINDS.find((kind) => kind === parsed.simulator);
  } catch {
    return undefined;
  }
}

/**
 * Polls `GET {target}/health` until it answers 200 or waitTimeoutMs (on the clock) has passed,
 * so the replay container can start alongside the simulator it feeds.
 */
export async function waitForTarget(target: string, options: WaitForTargetOptions): Promise<TargetHealth> {
  const { clock, waitTimeoutMs, logger, signal } = options;
  const retryEveryMs = options.retryEveryMs ?? 500;
  const started = clock.now();
  let attempts = 0;
  for (;;) {
    attempts += 1;
    let reason: string;
    const left = Math.max(0, waitTimeoutMs - (clock.now() - started));
    try {
      const answer = await request(
        options.fetch,
        `${target}/health`,
        { method: 'GET' },
        Math.max(1000, Math.min(5000, left)),
        signal,
      );
      if (answer.status === 200) return { simulator: simulatorOf(answer.body) };
      reason =
        answer.location === undefined
          ? `HTTP ${answer.status}`
          : `HTTP ${answer.status} to ${answer.location} (a redirect: not followed; give the simulator's own URL)`;
    } catch (err) {
      if (signal?.aborted) throw err;
      reason = (err as Error).message;
    }
    const waited = clock.now() - started;
    if (waited >= waitTimeoutMs)
      throw new CliError('TARGET_UNREACHABLE', { target, waitedMs: waited, lastReason: reason });
    if (attempts === 1) logger?.info({ target, reason }, 'waiting for the target to become healthy');
    await sleep(clock, Math.min(retryEveryMs, waitTimeoutMs - waited), signal);
  }
}
