import { STOMP_PATHS } from '@racedata/legacy-sim';
import type { CheckResult, Scenario, ScenarioContext } from '../../types';
import { evidenceOf, secs, verdict } from '../session/evidence';
import { FIRST_SESSION_MS, gradeFirstAuthentication } from '../session/first-session';
import { awaitOpen, type SessionOpen } from '../session/sessions';
import { upgradesTo } from '../session/upgrades';
import { STOMP_CHECKS } from './checks';

/** The first connection: how the client got its token and where it put it. */
export const connectScenario: Scenario = {
  name: 'first connection',
  checks: [STOMP_CHECKS.authKeySecret, STOMP_CHECKS.connectsWithBearer],
  async run(ctx) {
    // A STOMP session opens on the upgrade: only a valid bearer token on it gets that far.
    const open = await awaitOpen(ctx, 'stomp', FIRST_SESSION_MS);
    return [
      gradeFirstAuthentication(ctx, STOMP_CHECKS.authKeySecret, open, 'its STOMP session'),
      gradeBearer(ctx, open),
    ];
  },
};

function gradeBearer(ctx: ScenarioContext, open: SessionOpen | undefined): CheckResult {
  const info = STOMP_CHECKS.connectsWithBearer;
  const upgrades = upgradesTo(ctx, STOMP_PATHS).filter((e) => !open || e.at <= open.at);
  const evidence = [...upgrades.map(evidenceOf), ...(open ? [evidenceOf(open)] : [])];
  if (upgrades.length === 0)
    return verdict(
      info,
      'fail',
      `never asked to upgrade ${STOMP_PATHS.join(' or ')} within ${secs(FIRST_SESSION_MS)}`,
    );
  const without = upgrades.filter((e) => e.auth !== 'bearer');
  if (open && without.length === 0) {
    return verdict(info, 'pass', `sent Authorization: Bearer on the upgrade and was let in`, evidence);
  }
  if (open) {
    return verdict(
      info,
      'warn',
      `connected with a bearer token after ${without.length} upgrade(s) without one (auth: ${without.map((e) => e.auth).join(', ')})`,
      evidence,
    );
  }
  const last = upgrades[upgrades.length - 1] as (typeof upgrades)[number];
  if (last.auth !== 'bearer') {
    return verdict(
      info,
      'fail',
      `upgraded without Authorization: Bearer (auth: ${last.auth}): refused with 401`,
      evidence,
    );
  }
  return verdict(info, 'fail', 'sent a bearer token on the upgrade, but the server refused it', evidence);
}
