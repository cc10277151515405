import { EVENT_STREAM_PATH } from '@racedata/json-sim';
import type { Scenario } from '../../types';
import { authentications, succeeded } from '../session/auth';
import { evidenceOf, note, secs, verdict } from '../session/evidence';
import { CERTIFY_CLOSE_CODE } from '../session/reclose';
import { awaitOpen, nextOpen } from '../session/sessions';
import { upgradesTo } from '../session/upgrades';
import { STREAM_CHECKS } from './checks';

/**
 * A reconnect (5 s) plus one refused attempt with the old token and a new authentication: the
 * client is given this long to be back with a new token.
 */
export const REAUTH_WITHIN_MS = 8_000;

/**
 * Expires every token the client holds, then closes its session: reconnecting with the old
 * token gets AuthenticationError (and a 1008 close), and only a new authentication lets it back.
 */
export const reauthScenario: Scenario = {
  name: 'token refused',
  checks: [STREAM_CHECKS.reauthOnAuthError],
  async run(ctx) {
    const info = STREAM_CHECKS.reauthOnAuthError;
    const open = await awaitOpen(ctx, 'event-stream', 10_000);
    if (!open) return [verdict(info, 'skip', 'no open session to start from (see reconnect-after-close)')];
    const start = ctx.now();
    try {
      await ctx.control.expireTokens();
      await ctx.control.closeConnections(CERTIFY_CLOSE_CODE);
    } catch (err) {
      return [verdict(info, 'skip', `could not expire the tokens or close the session: ${String(err)}`)];
    }
    // After the open one, even when it opened in this same millisecond.
    const reopened = await nextOpen(ctx, 'event-stream', Math.max(start, open.at + 1), REAUTH_WITHIN_MS);
    const until = reopened?.at ?? ctx.now();
    const auths = authentications(ctx, start, until);
    const refused =
      upgradesTo(ctx, [EVENT_STREAM_PATH], start).filter((e) => e.at <= until).length - (reopened ? 1 : 0);
    const evidence = [
      note(start, `certify expired the user's tokens and closed its session (${CERTIFY_CLOSE_CODE})`),
      ...upgradesTo(ctx, [EVENT_STREAM_PATH], start)
        .filter((e) => e.at <= until)
        .map(evidenceOf),
      ...auths.map(evidenceOf),
      ...(reopened ? [evidenceOf(reopened)] : []),
    ];
    const fresh = succeeded(auths);
    if (reopened && fresh.length > 0) {
      const why =
        refused > 0
          ? `after ${refused} connection(s) refused with AuthenticationError`
          : 'before reconnecting';
      return [
        verdict(
          info,
          'pass',
          `authenticated again ${why} and was back ${secs(reopened.at - start)} later with the new token`,
          evidence,
        ),
      ];
    }
    if (reopened) {
      return [
        verdict(
          info,
          'skip',
          'reconnected without authenticating again: its old token was not refused, so the situation never arose',
          evidence,
        ),
      ];
    }
    if (fresh.length === 0) {
      return [
        verdict(
          info,
          'fail',
          `never authenticated again in ${secs(REAUTH_WITHIN_MS)}: ${refused} connection(s) refused with AuthenticationError`,
          evidence,
        ),
      ];
    }
    return [
      verdict(
        info,
        'fail',
        `authenticated again but opened no session with the new token within ${secs(REAUTH_WITHIN_MS)}`,
        evidence,
      ),
    ];
  },
};
