/**
 * The events suite: a JSON long-poll consumer of GET /customerapi/events, certified against the
 * JSON simulator. The scenarios run in this order; each plays its own traffic, so any of them
 * also runs alone (--only).
 */
import type { SuiteDefinition } from '../../types';
import { authScenario } from '../long-poll/auth-scenario';
import { backoffScenario } from '../long-poll/backoff-scenario';
import { reauthScenario } from '../long-poll/reauth-scenario';
import { repollScenario } from '../long-poll/repoll-scenario';
import { resetScenario } from '../long-poll/reset-scenario';
import { restartScenario } from '../long-poll/restart-scenario';
import { stalledScenario } from '../long-poll/stalled-scenario';
import { wholeRunScenario } from '../long-poll/whole-run-scenario';
import { backlogScenario } from './backlog-scenario';
import { eventsKind } from './events-kind';
import { followsLastEventId } from './follows-last-event-id';
import { unknownEventsScenario } from './unknown-scenario';

export const EVENTS_SUITE: SuiteDefinition = {
  suite: 'events',
  simulator: 'json',
  scenarios: [
    authScenario(eventsKind),
    repollScenario(eventsKind),
    backlogScenario,
    reauthScenario(eventsKind),
    backoffScenario(eventsKind),
    resetScenario(eventsKind),
    stalledScenario(eventsKind),
    unknownEventsScenario,
    restartScenario(eventsKind),
    wholeRunScenario(eventsKind, [followsLastEventId]),
  ],
};
