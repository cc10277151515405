import type { Suite, SuiteDefinition } from '../types';
import { STOMP_SUITE } from './stomp';
import { STREAM_SUITE } from './stream';

/**
 * The suites `racedata-sim certify` plays. Each suite's own branch fills its entry (its
 * scenarios, in order) and touches no other line of this file, so the branches merge cleanly.
 */
export const SUITE_DEFINITIONS: Record<Suite, SuiteDefinition> = {
  events: { suite: 'events', simulator: 'json', scenarios: [] },
  stream: STREAM_SUITE,
  listen: { suite: 'listen', simulator: 'legacy', scenarios: [] },
  stomp: STOMP_SUITE,
};
