import { EVENT_STREAM_PATH } from '@racedata/json-sim';
import type { CheckResult, Scenario, ScenarioContext } from '../../types';
import { authentications, succeeded } from '../session/auth';
import { evidenceOf, secs, verdict } from '../session/evidence';
import { awaitOpen, type SessionOpen } from '../session/sessions';
import { upgradesTo } from '../session/upgrades';
import { STREAM_CHECKS } from './checks';

/** How long a starting client has to open its first session (a node process starts slowly on shared cores). */
export const FIRST_SESSION_MS = 15_000;

/** The first connection: how the client got its token and when it sent it. */
export const connectScenario: Scenario = {
  name: 'first connection',
  checks: [STREAM_CHECKS.authKeySecret, STREAM_CHECKS.tokenWithinDeadline],
  async run(ctx) {
    const open = await awaitOpen(ctx, 'event-stream', FIRST_SESSION_MS);
    return [gradeAuth(ctx, open), gradeDeadline(ctx, open)];
  },
};

function gradeAuth(ctx: ScenarioContext, open: SessionOpen | undefined): CheckResult {
  const info = STREAM_CHECKS.authKeySecret;
  const until = open?.at ?? ctx.now();
  const tried = authentications(ctx, 0, until);
  const ok = succeeded(tried);
  const evidence = [...tried.map(evidenceOf), ...(open ? [evidenceOf(open)] : [])];
  if (ok.length > 0 && open) {
    return verdict(
      info,
      'pass',
      `authenticated with its key and secret, then opened a session ${secs(open.at - (ok[0] as { at: number }).at)} later`,
      evidence,
    );
  }
  if (!open && ok.length > 0) {
    return verdict(
      info,
      'fail',
      `authenticated, but opened no session within ${secs(FIRST_SESSION_MS)}`,
      evidence,
    );
  }
  if (open) {
    return verdict(
      info,
      'fail',
      'opened a session with a token it never asked for: no successful POST /customerapi/authenticate/subscription',
      evidence,
    );
  }
  const statuses = tried.map((e) => e.status).join(', ');
  return verdict(
    info,
    'fail',
    tried.length > 0
      ? `authentication never succeeded (answered ${statuses})`
      : `never authenticated within ${secs(FIRST_SESSION_MS)}`,
    evidence,
  );
}

function gradeDeadline(ctx: ScenarioContext, open: SessionOpen | undefined): CheckResult {
  const info = STREAM_CHECKS.tokenWithinDeadline;
  const deadline = ctx.timings.authTimeoutMs;
  const [first, second] = upgradesTo(ctx, [EVENT_STREAM_PATH]);
  if (!first)
    return verdict(info, 'fail', `never connected to ${EVENT_STREAM_PATH} within ${secs(FIRST_SESSION_MS)}`);
  const evidence = [
    evidenceOf(first),
    ...(open ? [evidenceOf(open)] : []),
    ...(second ? [evidenceOf(second)] : []),
  ];
  // The server itself refuses a token that is late or not the first message: an authenticated
  // session from the first connection is the proof, and its delay is reported against the deadline.
  if (open && open.at >= first.at && (!second || open.at <= second.at)) {
    return verdict(
      info,
      'pass',
      `sent its token ${open.at - first.at} ms after connecting (deadline ${deadline} ms)`,
      evidence,
    );
  }
  if (open) {
    return verdict(
      info,
      'fail',
      `its first connection was refused (token late or not its first message); a later one authenticated`,
      evidence,
    );
  }
  return verdict(
    info,
    'fail',
    `its connection never authenticated: no valid token as the first message within ${deadline} ms`,
    evidence,
  );
}
