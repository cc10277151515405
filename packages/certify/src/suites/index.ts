import type { Suite, SuiteDefinition } from '../types';
import { EVENTS_SUITE } from './events';
import { LISTEN_SUITE } from './listen';
import { STOMP_SUITE } from './stomp';
import { STREAM_SUITE } from './stream';

/** The suites `racedata-sim certify` plays, each with its scenarios in order. */
export const SUITE_DEFINITIONS: Record<Suite, SuiteDefinition> = {
  events: EVENTS_SUITE,
  stream: STREAM_SUITE,
  listen: LISTEN_SUITE,
  stomp: STOMP_SUITE,
};
