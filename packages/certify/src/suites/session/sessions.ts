import type { ScenarioContext, TrafficOf } from '../../types';

export type SessionTransport = 'event-stream' | 'stomp';
export type SessionOpen = TrafficOf<'session-open'>;
export type SessionClosed = TrafficOf<'session-closed'>;

function mine(ctx: ScenarioContext, transport: SessionTransport) {
  return (event: { readonly user: string; readonly transport: string }) =>
    event.user === ctx.user.key && event.transport === transport;
}

/** The certified user's sessions on a transport that opened at or after `since`. */
export function opensSince(ctx: ScenarioContext, transport: SessionTransport, since = 0): SessionOpen[] {
  return ctx.traffic.of('session-open', since).filter(mine(ctx, transport));
}

export function closesSince(ctx: ScenarioContext, transport: SessionTransport, since = 0): SessionClosed[] {
  return ctx.traffic.of('session-closed', since).filter(mine(ctx, transport));
}

/** How many of the user's sessions were open at `at`. */
export function openCountAt(ctx: ScenarioContext, transport: SessionTransport, at: number): number {
  const opens = opensSince(ctx, transport).filter((e) => e.at <= at).length;
  const closes = closesSince(ctx, transport).filter((e) => e.at <= at).length;
  return Math.max(0, opens - closes);
}

/**
 * The newest of the user's sessions still open at `at`, if any: sessions are not paired by id
 * in the traffic, so a user has one open while more opened than closed by then.
 */
export function openAt(
  ctx: ScenarioContext,
  transport: SessionTransport,
  at: number,
): SessionOpen | undefined {
  if (openCountAt(ctx, transport, at) === 0) return undefined;
  return opensSince(ctx, transport)
    .filter((e) => e.at <= at)
    .pop();
}

/** The session open now, or the next one to open within `timeoutMs`. */
export async function awaitOpen(
  ctx: ScenarioContext,
  transport: SessionTransport,
  timeoutMs: number,
): Promise<SessionOpen | undefined> {
  const now = ctx.now();
  const open = openAt(ctx, transport, now);
  if (open) return open;
  return ctx.traffic.next('session-open', mine(ctx, transport), { timeoutMs, since: now });
}

/** The next session of the user to open at or after `since`, within `timeoutMs` from now. */
export function nextOpen(
  ctx: ScenarioContext,
  transport: SessionTransport,
  since: number,
  timeoutMs: number,
): Promise<SessionOpen | undefined> {
  return ctx.traffic.next('session-open', mine(ctx, transport), { timeoutMs, since });
}

/** The next close of one of the user's sessions at or after `since`, within `timeoutMs` from now. */
export function nextClose(
  ctx: ScenarioContext,
  transport: SessionTransport,
  since: number,
  timeoutMs: number,
): Promise<SessionClosed | undefined> {
  return ctx.traffic.next('session-closed', mine(ctx, transport), { timeoutMs, since });
}
