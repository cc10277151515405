import {
  CONTROL_ACCESS_ERRORS,
  CONTROL_BODY_ERRORS,
  controlError,
  COUNT,
  type DocsContext,
  jsonContent,
  type JsonSchema,
  objectSchema,
  type OpenApiPart,
  responseRef,
  schemaRef,
  sessionTransports,
} from '@racedata/core';
import { controlOperation } from './control-paths';
import { faultSchemas, SENDABLE_CLOSE_CODE } from './fault-schemas';

const ok = (description: string, schema: JsonSchema) => ({ description, content: jsonContent(schema) });

/** Fault rules, closing sessions and expiring tokens: the control plane's failure tooling. */
/** The session transports connections/close may name: the one as a const, several as an enum. */
function sessionSchema(ctx: DocsContext): JsonSchema {
  const sessions = sessionTransports(ctx.description);
  return sessions.length === 1 ? { const: sessions[0] } : { enum: sessions };
}

export function faultPaths(ctx: DocsContext): OpenApiPart {
  const userKey: JsonSchema = { enum: ctx.users.users.map((u) => u.key) };
  const unauthorized = CONTROL_ACCESS_ERRORS;
  return {
    paths: {
      '/_sim/faults': {
        post: controlOperation({
          operationId: 'addFault',
          summary: 'Add a fault rule: matching requests, upgrades or deliveries fail as the action says',
          description:
            'Injected answers are outside the statuses this document lists for the operation they hit.',
          requestBody: { required: true, content: jsonContent(schemaRef('FaultRuleRequest')) },
          responses: {
            '201': ok('The rule as stored', schemaRef('FaultRule')),
            ...CONTROL_BODY_ERRORS,
            '413': ok(
              `The body exceeds MAX_BODY_BYTES, or "action.body" ${ctx.settings.faultBodyMaxBytes} bytes (FAULT_BODY_MAX_BYTES)`,
              controlError(['PAYLOAD_TOO_LARGE']),
            ),
            '429': ok(
              `${ctx.settings.faultRulesMax} rules are in force already (FAULT_RULES_MAX)`,
              controlError(['FAULT_RULES_LIMIT']),
            ),
          },
        }),
        get: controlOperation({
          operationId: 'listFaults',
          summary: 'The fault rules in force',
          responses: { '200': ok('The rules', schemaRef('FaultList')), ...unauthorized },
        }),
        delete: controlOperation({
          operationId: 'clearFaults',
          summary: 'Remove every fault rule, releasing what hold and delay rules keep waiting',
          responses: { '200': ok('How many rules went', schemaRef('FaultsRemoved')), ...unauthorized },
        }),
      },
      '/_sim/faults/{id}': {
        delete: controlOperation({
          operationId: 'removeFault',
          summary: 'Remove one fault rule, releasing what it keeps waiting',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': ok('The rule went', objectSchema({ removed: { const: 1 } })),
            '400': responseRef('ControlBadRequest'),
            ...unauthorized,
            '404': ok('No such rule', controlError(['NOT_FOUND'])),
          },
        }),
      },
      '/_sim/connections/close': {
        post: controlOperation({
          operationId: 'closeConnections',
          summary: 'Close matching WebSocket sessions now',
          requestBody: {
            required: false,
            content: jsonContent(
              objectSchema(
                {
                  user: userKey,
                  // Only this simulator's own session transports (fault-params.ts parseCloseRequest).
                  transport: sessionSchema(ctx),
                  code: { ...SENDABLE_CLOSE_CODE, default: 1000 },
                },
                [],
              ),
            ),
          },
          responses: {
            '200': ok('How many closed', objectSchema({ closed: COUNT })),
            ...CONTROL_BODY_ERRORS,
          },
        }),
      },
      '/_sim/tokens/expire': {
        post: controlOperation({
          operationId: 'expireTokens',
          summary: 'Expire the tokens issued so far to one user (or every user without `user`)',
          description:
            'They answer 401 TOKEN_EXPIRED from now on: a JWT for good, a fixed token until its user ' +
            'authenticates again (or POST /_sim/reset with faults lifts it).',
          requestBody: { required: false, content: jsonContent(objectSchema({ user: userKey }, [])) },
          responses: {
            '200': ok(
              'The users whose tokens expired',
              objectSchema({ expired: { type: 'array', items: userKey } }),
            ),
            ...CONTROL_BODY_ERRORS,
          },
        }),
      },
    },
    components: { schemas: faultSchemas(ctx) },
  };
}
