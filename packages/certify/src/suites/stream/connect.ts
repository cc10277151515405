import { EVENT_STREAM_PATH } from '@racedata/json-sim';
import type { CheckResult, Scenario, ScenarioContext } from '../../types';
import { evidenceOf, secs, verdict } from '../session/evidence';
import { FIRST_SESSION_MS, gradeFirstAuthentication } from '../session/first-session';
import { awaitOpen, type SessionOpen } from '../session/sessions';
import { upgradesTo } from '../session/upgrades';
import { STREAM_CHECKS } from './checks';

/** The first connection: how the client got its token and when it sent it. */
export const connectScenario: Scenario = {
  name: 'first connection',
  checks: [STREAM_CHECKS.authKeySecret, STREAM_CHECKS.tokenWithinDeadline],
  async run(ctx) {
    const open = await awaitOpen(ctx, 'event-stream', FIRST_SESSION_MS);
    return [
      gradeFirstAuthentication(ctx, STREAM_CHECKS.authKeySecret, open, 'its event-stream session'),
      gradeDeadline(ctx, open),
    ];
  },
};

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
