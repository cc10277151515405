import type { CheckInfo, CheckResult, Evidence, ScenarioContext } from '../../types';
import { note, verdict } from './evidence';

/** How long after the last message the client has to print what it processed. */
export const ECHO_WITHIN_MS = 3_000;

/** The check without --echo: what the client processed cannot be known. */
export function echoSkipped(info: CheckInfo): CheckResult {
  return verdict(
    info,
    'skip',
    'run with --echo stdout (one line per message processed, holding its id or payloadKey) to grade it',
  );
}

function found(ctx: ScenarioContext, since: number, keys: readonly string[]): Set<string> {
  const lines = ctx.traffic.of('client-line', since).map((e) => e.line);
  return new Set(keys.filter((key) => lines.some((line) => line.includes(key))));
}

/**
 * Waits until the client printed a line holding each key (an id or payloadKey), or until
 * `deadline`; resolves with the keys never printed.
 */
export async function awaitEchoes(
  ctx: ScenarioContext,
  keys: readonly string[],
  since: number,
  deadline: number,
): Promise<string[]> {
  for (;;) {
    const seen = found(ctx, since, keys);
    const missing = keys.filter((key) => !seen.has(key));
    const left = deadline - ctx.now();
    if (missing.length === 0 || left <= 0 || ctx.signal.aborted) return missing;
    await ctx.traffic.next('client-line', (e) => missing.some((key) => e.line.includes(key)), {
      timeoutMs: left,
      since,
    });
  }
}

export interface Sent {
  /** The id or payloadKey the client is to print. */
  readonly key: string;
  readonly at: number;
  /** Whether the client held a session when it was sent. */
  readonly connected: boolean;
}

/** Grades what the client printed against what was sent while it was connected. */
export async function gradeEchoes(
  ctx: ScenarioContext,
  info: CheckInfo,
  sent: readonly Sent[],
  since: number,
  setup: readonly Evidence[],
): Promise<CheckResult> {
  const expected = sent.filter((s) => s.connected);
  const evidence = [
    ...setup,
    ...sent.map((s) =>
      note(s.at, `sent ${s.key}${s.connected ? '' : ' (client not connected: not graded)'}`),
    ),
  ];
  if (expected.length === 0)
    return verdict(info, 'skip', 'the client was not connected while the messages were sent', evidence);
  const last = Math.max(...expected.map((s) => s.at));
  const missing = await awaitEchoes(
    ctx,
    expected.map((s) => s.key),
    since,
    last + ECHO_WITHIN_MS,
  );
  const printed = ctx.traffic.of('client-line', since).slice(0, 5);
  const all = [...evidence, ...printed.map((e) => note(e.at, `client printed "${e.line.slice(0, 80)}"`))];
  if (missing.length > 0) {
    return verdict(
      info,
      'fail',
      `printed ${expected.length - missing.length} of ${expected.length} messages sent while it was connected; missing ${missing.join(', ')}`,
      all,
    );
  }
  return verdict(info, 'pass', `printed all ${expected.length} messages sent while it was connected`, all);
}
