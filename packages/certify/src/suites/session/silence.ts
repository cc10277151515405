/**
 * What the silent-connection checks share: silencing the client's session at certify's front
 * door (the socket stays open, nothing more reaches the client), and reading back what the
 * simulator last sent it.
 */
import type { Evidence, ScenarioContext, SilencedSession } from '../../types';
import { note } from './evidence';
import { nextOpen, type SessionTransport } from './sessions';

/** After a verdict, how long the client has to be back before the next scenario (not graded). */
export const RECOVER_WITHIN_MS = 10_000;

/** `a Ping`, `a heart-beat`, `a MESSAGE frame`: what a frame was, for a report line. */
export function describeFrame(text: string | undefined): string {
  if (text === undefined) return 'a frame';
  if (text === '\n' || text === '\r\n') return 'a heart-beat';
  const type = /^\s*\{\s*"type"\s*:\s*"([A-Za-z]+)"/.exec(text)?.[1];
  if (type !== undefined) return `a ${type} message`;
  const command = /^([A-Z]+)\r?\n/.exec(text)?.[1];
  return command !== undefined ? `a ${command} frame` : 'a frame';
}

export interface Silenced {
  readonly at: number;
  /** When the simulator last sent one of the silenced sessions anything. */
  readonly lastAt: number;
  readonly evidence: Evidence[];
}

/** Silences the client's sessions on `paths`; undefined when none was open. */
export function silenceSessions(ctx: ScenarioContext, paths: readonly string[]): Silenced | undefined {
  const at = ctx.now();
  const silenced: SilencedSession[] = ctx.frontDoor.silence(paths);
  if (silenced.length === 0) return undefined;
  const last = silenced.reduce((a, b) => ((b.lastFrameAt ?? 0) > (a.lastFrameAt ?? 0) ? b : a));
  const lastAt = last.lastFrameAt ?? at;
  return {
    at,
    lastAt,
    evidence: [
      note(lastAt, `the simulator's last frame to it: ${describeFrame(last.lastFrame)}`),
      note(at, `certify silenced its session: nothing more reaches it, and its socket stays open`),
    ],
  };
}

/**
 * After the verdict: a silent session the client kept is closed from the server's side (its close
 * frame is swallowed too, so the socket is cut after the close grace), and the client is given
 * time to come back for the scenarios after this one.
 */
export async function recover(
  ctx: ScenarioContext,
  transport: SessionTransport,
  since: number,
  keptOpen: boolean,
): Promise<void> {
  const from = ctx.now();
  if (keptOpen) await ctx.control.closeConnections(4000).catch(() => undefined);
  await nextOpen(ctx, transport, Math.max(since, from), RECOVER_WITHIN_MS);
}
