import {
  CONTROL_ACCESS_ERRORS,
  CONTROL_BODY_ERRORS,
  controlError,
  COUNT,
  type DocsContext,
  integer,
  jsonContent,
  type JsonSchema,
  MAX_TIMER_MS,
  objectSchema,
  type OpenApiPart,
  type Response,
  responseRef,
  schemaRef,
} from '@racedata/core';
import { SANDBOX_PREFIX } from '../sandboxes';
import { controlOperation } from './control-paths';

const ok = (description: string, schema: JsonSchema): Response => ({
  description,
  content: jsonContent(schema),
});

const NO_SANDBOXES = ok(
  'Sandboxes are off (SANDBOX_MAX=0), or this simulator is itself a sandbox (they do not nest)',
  controlError(['NOT_FOUND']),
);

/** The variable base path a sandbox serves this whole document under (sandboxes.ts). */
export const SANDBOX_SERVER = {
  url: `${SANDBOX_PREFIX}{sandboxId}`,
  description:
    'A sandbox made by POST /_sim/sandboxes: every path of this document, WebSocket endpoints included, ' +
    'under its basePath; an unknown or deleted id answers 404',
  variables: { sandboxId: { default: '0badc0de', description: 'The id POST /_sim/sandboxes answered' } },
} as const;

function schemas(ctx: DocsContext): Record<string, JsonSchema> {
  const ms = (min: number) => integer(min, MAX_TIMER_MS);
  return {
    SandboxRequest: objectSchema(
      {
        replay: {
          description: 'true: one recorded message a second; an object says how; absent or false: no replay',
          oneOf: [
            { type: 'boolean' },
            {
              ...objectSchema(
                {
                  intervalMs: ms(1),
                  maxDelayMs: ms(0),
                  initialDelayMs: ms(0),
                  rebaseDates: { type: 'boolean' },
                },
                [],
              ),
              anyOf: [{ required: ['intervalMs'] }, { required: ['maxDelayMs'] }],
            },
          ],
        },
        longPollTimeoutMs: ms(1),
      },
      [],
      { description: 'Everything optional; no body is a sandbox without replay' },
    ),
    SandboxInfo: objectSchema({
      id: { type: 'string', pattern: '^[0-9a-f]{8}$' },
      basePath: { type: 'string', pattern: '^/sandboxes/[0-9a-f]{8}$' },
      users: {
        type: 'array',
        description: "This simulator's users with tokens of the sandbox's own",
        items: objectSchema({
          key: { enum: ctx.users.users.map((u) => u.key) },
          secret: { type: 'string' },
          token: { type: 'string' },
          channels: { type: 'array', items: { type: 'string' } },
        }),
      },
      createdAt: { type: 'string', format: 'date-time' },
      lastUsedAt: { type: 'string', format: 'date-time' },
    }),
  };
}

/** POST and GET /_sim/sandboxes, DELETE /_sim/sandboxes/{id} (control-plane.ts, sandbox-params.ts). */
export function sandboxPaths(ctx: DocsContext): OpenApiPart {
  const unauthorized = CONTROL_ACCESS_ERRORS;
  const { sandboxMax, sandboxIdleMs } = ctx.settings;
  return {
    paths: {
      '/_sim/sandboxes': {
        post: controlOperation({
          operationId: 'createSandbox',
          summary: 'Make an isolated simulator of the same kind, served under its basePath',
          description:
            'Its own store or queues, eventIds, journal, faults, clock, replay and tokens. It is deleted after ' +
            `${sandboxIdleMs} ms without a request (SANDBOX_IDLE_MS); at most ${sandboxMax} exist at once (SANDBOX_MAX).`,
          requestBody: { required: false, content: jsonContent(schemaRef('SandboxRequest')) },
          responses: {
            '201': ok('The sandbox', schemaRef('SandboxInfo')),
            ...CONTROL_BODY_ERRORS,
            '404': NO_SANDBOXES,
            '429': ok('SANDBOX_MAX sandboxes exist already', controlError(['SANDBOX_LIMIT'])),
          },
        }),
        get: controlOperation({
          operationId: 'listSandboxes',
          summary: 'The sandboxes that exist',
          responses: {
            '200': ok(
              'The sandboxes',
              objectSchema({ max: COUNT, sandboxes: { type: 'array', items: schemaRef('SandboxInfo') } }),
            ),
            ...unauthorized,
            '404': NO_SANDBOXES,
          },
        }),
      },
      '/_sim/sandboxes/{id}': {
        delete: controlOperation({
          operationId: 'deleteSandbox',
          summary: 'Close a sandbox (its sessions and held polls) and free it',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': ok('Deleted', objectSchema({ deleted: { type: 'string' } })),
            '400': responseRef('ControlBadRequest'),
            ...unauthorized,
            '404': ok('No such sandbox, or sandboxes are off here', controlError(['NOT_FOUND'])),
          },
        }),
      },
    },
    components: { schemas: schemas(ctx) },
  };
}
