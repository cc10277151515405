import type { ReplayHandle } from '@racedata/core';
import type { ControlPlaneOptions } from './control-plane';
import type { CertificationState, ConsoleFaultRule, ConsoleState, FaultRule } from './wire';

/**
 * The console stream's state event, less its time (console-stream.ts adds that as it sends).
 * It goes to every console tab each time it changes, so it carries no rule bodies: those are
 * up to FAULT_BODY_MAX_BYTES each, and GET /_sim/faults has them for whoever wants them.
 */
export function consoleState(
  options: Pick<ControlPlaneOptions, 'kind' | 'clock' | 'hooks' | 'faults' | 'journal' | 'certification'>,
  replay: ReplayHandle,
): () => ConsoleState {
  const { kind, clock, hooks, faults, journal, certification } = options;
  return () => ({
    simulator: kind,
    // A clock advance changes it, so the console hears of the new time at once.
    clockOffsetMs: clock.offsetMs,
    ...hooks.state(),
    replay: replay.view(),
    faults: faults.list().map(withoutBody),
    journal: { entries: journal.size, max: journal.capacity, lastSeq: journal.lastSeq },
    // Evidence included: the simulator closes when the run ends, and the page keeps the last state.
    ...withCertification(certification?.current()),
  });
}

function withCertification(state: CertificationState | undefined): { certification?: CertificationState } {
  return state ? { certification: state } : {};
}

function withoutBody(rule: FaultRule): ConsoleFaultRule {
  if (!('body' in rule.action) || rule.action.body === undefined) return rule;
  const { body, ...action } = rule.action;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { ...rule, action: { ...action, bodyBytes: Buffer.byteLength(text) } };
}
