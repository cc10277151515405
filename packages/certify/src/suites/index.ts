import type { Suite, SuiteDefinition } from '../types';
import { EVENTS_SUITE } from './events';
import { LISTEN_SUITE } from './listen';

/**
 * The suites `racedata-sim certify` plays. Each suite's own branch fills its entry (its
 * scenarios, in order) and touches no other line of this file, so the branches merge cleanly.
 */
export const SUITE_DEFINITIONS: Record<Suite, SuiteDefinition> = {
  events: EVENTS_SUITE,
  stream: { suite: 'stream', simulator: 'json', scenarios: [] },
  listen: LISTEN_SUITE,
  stomp: { suite: 'stomp', simulator: 'legacy', scenarios: [] },
};
