import { coreError, type SimulatorSettings } from '@racedata/core';
import { controlPlaneError } from './errors';
import type { FaultRuleInput } from './wire';

export type FaultLimits = Pick<SimulatorSettings, 'faultRulesMax' | 'faultBodyMaxBytes'>;

/**
 * Refuses a rule past FAULT_BODY_MAX_BYTES (413) or FAULT_RULES_MAX (429). Every rule is held,
 * listed by GET /_sim/faults and shown by each console tab, so without both bounds a client
 * adding rules with large bodies grew the heap and every listing without limit.
 */
export function checkFaultLimits(input: FaultRuleInput, rulesNow: number, limits: FaultLimits): void {
  const { action } = input;
  if (action.type === 'status' && action.body !== undefined) {
    const text = typeof action.body === 'string' ? action.body : JSON.stringify(action.body);
    const bytes = Buffer.byteLength(text);
    if (bytes > limits.faultBodyMaxBytes) {
      throw coreError(
        'PAYLOAD_TOO_LARGE',
        `"action.body" is ${bytes} bytes; at most ${limits.faultBodyMaxBytes} (FAULT_BODY_MAX_BYTES)`,
      );
    }
  }
  if (rulesNow >= limits.faultRulesMax) {
    throw controlPlaneError(
      'FAULT_RULES_LIMIT',
      `${limits.faultRulesMax} fault rules are in force already (FAULT_RULES_MAX); remove some with DELETE /_sim/faults`,
    );
  }
}
