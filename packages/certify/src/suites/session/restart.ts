/**
 * survives-restart for the session transports: with the client's session open, the simulator
 * goes away and comes back; the client must be back with a new session (STOMP: subscribed)
 * within BACK_WITHIN_MS of the return.
 */
import type { CheckResult, Evidence, Scenario, ScenarioContext } from '../../types';
import { BACK_WITHIN_MS, playOutage, retriesText } from '../restart/outage';
import { survivesRestart } from '../restart/check-info';
import { evidenceOf, secs, verdict } from './evidence';
import { awaitOpen, nextOpen, type SessionTransport } from './sessions';

export interface SessionRestart {
  readonly suite: 'stream' | 'stomp';
  readonly transport: SessionTransport;
  /**
   * What else proves it is back, once its session opened (STOMP: subscribed again); undefined
   * when it is, else why not. `deadline` is when the check's time is up.
   */
  readonly proveBack?: (ctx: ScenarioContext, deadline: number) => Promise<BackProof>;
}

export interface BackProof {
  readonly ok: boolean;
  readonly evidence: readonly Evidence[];
  /** Why it is not back, when it is not. */
  readonly why?: string;
}

export function sessionRestartScenario(spec: SessionRestart): Scenario {
  const info = survivesRestart(spec.suite);
  return {
    name: 'the simulator restarts',
    checks: [info],
    gradesClientExit: true,
    async run(ctx) {
      return [await play(ctx)];
    },
  };

  async function play(ctx: ScenarioContext): Promise<CheckResult> {
    const open = await awaitOpen(ctx, spec.transport, 10_000);
    if (!open) return verdict(info, 'skip', 'no open session to drop (see reconnect-after-close)');
    const played = await playOutage(ctx, info, [evidenceOf(open)]);
    if ('result' in played) return played.result;
    const { outcome, evidence } = played;
    const backAt = outcome.backAt as number;
    const deadline = backAt + BACK_WITHIN_MS;
    const reopened = await nextOpen(ctx, spec.transport, backAt, Math.max(0, deadline - ctx.now()));
    if (!reopened || reopened.at > deadline) {
      return verdict(
        info,
        'fail',
        `gave up: no new session within ${secs(BACK_WITHIN_MS)} of the simulator's return (${retriesText(outcome)})`,
        evidence,
      );
    }
    evidence.push(evidenceOf(reopened));
    const back = `back ${secs(reopened.at - backAt)} after the simulator returned`;
    if (spec.proveBack) {
      let proof;
      try {
        proof = await spec.proveBack(ctx, deadline);
      } catch (err) {
        return verdict(info, 'skip', `could not inject or read the journal: ${String(err)}`, evidence);
      }
      evidence.push(...proof.evidence);
      if (!proof.ok) return verdict(info, 'fail', `${back}, but ${proof.why ?? 'not usable'}`, evidence);
    }
    return verdict(info, 'pass', `${back} (${retriesText(outcome)})`, evidence);
  }
}
