import type { ClientKind } from '../../clients/sets';
import { abPair } from '../../drivers/ab-pair';
import type { SimKind } from '../../harness/processes';

/**
 * What every control-plane scenario switches: the control plane (delivery journal, /metrics request
 * wrapper, fault-rule checks, /_sim/* routes) on, as by default, against CONTROL_API=off; no fault
 * rule is in force (rules are checked, none matches). Target: it costs at most 10% of throughput.
 */
export const CONTROL_PLANE = {
  what: 'control plane',
  env: { on: { CONTROL_API: 'on' }, off: { CONTROL_API: 'off' } },
  rate: { bound: 0.9, text: 'on / off >= 0.90 (costs at most 10%)' },
} as const;

/** Deliveries to the config's stream clients (or poll clients), the control plane on against off. */
export function deliveries(kind: SimKind, clients: ClientKind, label: string) {
  const count = clients === 'json-polls' ? 'pollClients' : 'streamClients';
  return abPair({ ...CONTROL_PLANE, kind, work: { label, clients, count: (c) => c.controlPlane[count] } });
}
