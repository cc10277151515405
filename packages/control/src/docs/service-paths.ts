import { METRICS_PATH } from '../metrics';
import { CONTROL_SECURITY } from './control-paths';
import {
  type DocsContext,
  integer,
  jsonContent,
  objectSchema,
  type OpenApiPart,
  responseRef,
} from '@racedata/core';

/** GET /health (both simulators' apps) and GET /metrics (metrics.ts, gated like /_sim/*). */
export function servicePaths(ctx: DocsContext): OpenApiPart {
  return {
    paths: {
      '/health': {
        get: {
          operationId: 'health',
          summary: 'Liveness: answers while the simulator serves requests',
          tags: ['service'],
          security: [{}],
          responses: {
            '200': {
              description: 'Up',
              content: jsonContent(
                objectSchema({
                  status: { const: 'ok' },
                  simulator: { const: ctx.kind },
                  version: {
                    type: 'string',
                    description: 'the racedata-sim version (unknown when not given)',
                  },
                  startedAt: { type: 'string', format: 'date-time' },
                  uptimeMs: integer(
                    0,
                    undefined,
                    'ms since the simulator started (real time: /_sim/clock does not move it)',
                  ),
                }),
              ),
            },
          },
        },
      },
      [METRICS_PATH]: {
        get: {
          operationId: 'metrics',
          summary: 'Prometheus text exposition: requests, deliveries, held polls, sessions, store or queues',
          description: 'Served only while the control plane is on (CONTROL_API); 404 otherwise.',
          tags: ['service'],
          security: CONTROL_SECURITY,
          responses: {
            '200': {
              description: 'Prometheus text format 0.0.4',
              content: { 'text/plain': { schema: { type: 'string', pattern: '^# HELP ' } } },
            },
            '401': responseRef('ControlUnauthorized'),
          },
        },
      },
    },
  };
}
