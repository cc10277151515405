import type { ScenarioContext, TrafficOf } from '../../types';

// Both spellings of the production path (the vendor's example has a trailing slash), and the
// legacy simulator's shortened Basic path (docs/curl-walkthrough.md, "Legacy simulator walkthrough").
const AUTHENTICATE_PATH = /^\/(customerapi\/authenticate\/subscription|authenticate)\/?$/i;

export type Request = TrafficOf<'request'>;

export function isAuthenticate(event: Request): boolean {
  return event.method === 'POST' && AUTHENTICATE_PATH.test(event.path);
}

/**
 * Authentications by the certified user in [from, to]: a request the server could not tie to a
 * user (a body it did not name one in) counts too, since only the client authenticates here.
 */
export function authentications(ctx: ScenarioContext, from: number, to: number): Request[] {
  return ctx.traffic
    .of('request', from)
    .filter((e) => e.at <= to && isAuthenticate(e) && (e.user === undefined || e.user === ctx.user.key));
}

export function succeeded(requests: readonly Request[]): Request[] {
  return requests.filter((e) => e.status === 200);
}
