import {
  CONTROL_ACCESS_ERRORS,
  controlError,
  COUNT,
  integer,
  jsonContent,
  type JsonSchema,
  objectSchema,
  type OpenApiPart,
  schemaRef,
} from '@racedata/core';
import { controlOperation } from './control-paths';

const SUITE: JsonSchema = { enum: ['events', 'stream', 'listen', 'stomp'] };

const PHASE: JsonSchema = {
  enum: ['waiting', 'playing', 'finished', 'aborted'],
  description:
    'waiting for the client, playing a scenario, finished (every check graded), or aborted early (see `aborted`)',
};

const CHECK = objectSchema(
  {
    id: { type: 'string' },
    scenario: { type: 'string', description: 'The scenario that grades it' },
    required: { type: 'boolean' },
    status: { enum: ['pending', 'pass', 'fail', 'warn', 'skip'] },
    summary: { type: 'string', description: 'The rule while pending; the verdict once graded' },
    expectedFailure: { const: true, description: 'A failure listed in --expected-failures' },
    evidence: {
      type: 'array',
      description: 'At most 60 lines: the first 50 and the last 9, with one counting those left out',
      items: objectSchema({ at: { type: 'string', format: 'date-time' }, what: { type: 'string' } }),
    },
  },
  ['id', 'scenario', 'required', 'status', 'summary', 'evidence'],
);

const TIMINGS = objectSchema({
  longPollTimeoutMs: COUNT,
  pingIntervalMs: COUNT,
  authTimeoutMs: COUNT,
  tokenTtlSeconds: COUNT,
  stompHeartBeatMs: COUNT,
});

const STATE = objectSchema(
  {
    suite: SUITE,
    client: { type: 'string', description: 'The client command line, or `attached` (--attach)' },
    attached: { type: 'boolean' },
    timings: TIMINGS,
    startedAt: { type: 'string', format: 'date-time' },
    phase: PHASE,
    scenario: { type: 'string', description: 'The scenario playing now' },
    clientReadyAfterMs: integer(0, undefined, "The client's first request, after its start"),
    checks: { type: 'array', items: CHECK },
    passed: COUNT,
    failed: integer(0, undefined, 'Required checks that failed and were not expected to'),
    aborted: { type: 'string', description: 'Why the suite ended early' },
    foreign: objectSchema(
      {
        count: COUNT,
        sample: {
          type: 'array',
          description: 'The first few, described',
          items: objectSchema({ at: { type: 'string', format: 'date-time' }, what: { type: 'string' } }),
        },
      },
      ['count', 'sample'],
      {
        description:
          'Requests and upgrades that were not the certified client (--attach: another process on the port); never graded',
      },
    ),
  },
  ['suite', 'client', 'attached', 'timings', 'startedAt', 'phase', 'checks', 'passed', 'failed'],
);

/** GET /_sim/state's `certification`, on a simulator racedata-sim certify runs. */
const SUMMARY = objectSchema(
  {
    suite: SUITE,
    phase: PHASE,
    scenario: { type: 'string' },
    checks: COUNT,
    graded: COUNT,
    passed: COUNT,
    failed: COUNT,
  },
  ['suite', 'phase', 'checks', 'graded', 'passed', 'failed'],
  { description: 'Only on a simulator `racedata-sim certify` runs' },
);

/** GET /_sim/certification: the certification a certify simulator serves (404 on any other). */
export function certificationPaths(): OpenApiPart {
  return {
    paths: {
      '/_sim/certification': {
        get: controlOperation({
          operationId: 'getCertification',
          summary: "The running certification: suite, client, scenario playing, each check's verdict",
          description:
            'Served by the simulator `racedata-sim certify` starts for a suite; every other simulator answers 404.',
          responses: {
            '200': {
              description: 'The certification',
              content: jsonContent(schemaRef('CertificationState')),
            },
            ...CONTROL_ACCESS_ERRORS,
            '404': {
              description: 'This simulator serves no certification',
              content: jsonContent(controlError(['NOT_FOUND'])),
            },
          },
        }),
      },
    },
    components: { schemas: { CertificationState: STATE, CertificationSummary: SUMMARY } },
  };
}
