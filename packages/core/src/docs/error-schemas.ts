import type { JsonSchema } from './json-schema';
import { objectSchema } from './json-schema';
import type { Components, MediaType, Response } from './openapi-types';

/** Every /_sim/* and /metrics error: `{status:'fail', code, message}` (control-plane.ts sendJson). */
const CONTROL_ERROR: JsonSchema = objectSchema(
  {
    status: { const: 'fail' },
    code: { type: 'string', description: 'Stable error code of the core error catalog' },
    message: { type: 'string' },
  },
  undefined,
  { title: 'Control-plane error' },
);

/**
 * A request body refused before it is read, because too many bodies are in flight
 * (MAX_INFLIGHT_BODY_BYTES; server/body-budget.ts). It has no `code`: it is answered before
 * either simulator's error handling runs.
 */
const BODIES_IN_FLIGHT: JsonSchema = objectSchema(
  { status: { const: 'fail' }, message: { type: 'string' } },
  undefined,
  { title: 'Server busy' },
);

/** A control error whose `code` is one of these. */
export function controlError(codes: readonly string[]): JsonSchema {
  return { $ref: '#/components/schemas/ControlError', properties: { code: { enum: codes } } };
}

export function jsonContent(schema: JsonSchema): Readonly<Record<string, MediaType>> {
  return { 'application/json': { schema } };
}

const controlResponse = (description: string, codes: readonly string[]): Response => ({
  description,
  content: jsonContent(controlError(codes)),
});

/** The component names operations refer to with `responseRef`. */
export const SHARED_RESPONSES = {
  ControlBadRequest: controlResponse(
    'The body or a parameter is invalid; the message names it (nothing was changed)',
    ['VALIDATION_FAILED', 'MALFORMED_JSON'],
  ),
  ControlUnauthorized: controlResponse(
    'CONTROL_TOKEN is set and the request lacks `Authorization: Bearer <CONTROL_TOKEN>`',
    ['CONTROL_UNAUTHORIZED'],
  ),
  ControlForbidden: controlResponse(
    'Refused before anything else (control-guard.ts): Host names none of localhost, an IP address and CONTROL_ALLOWED_HOSTS, or a change comes from a page on another origin',
    ['CONTROL_HOST_REFUSED', 'CONTROL_ORIGIN_REFUSED'],
  ),
  ControlTooLarge: controlResponse('The request body exceeds MAX_BODY_BYTES', ['PAYLOAD_TOO_LARGE']),
  ControlNotJson: controlResponse(
    'A body was sent without Content-Type: application/json (nothing was changed)',
    ['UNSUPPORTED_MEDIA_TYPE'],
  ),
  BodiesInFlight: {
    description:
      'Too many request bodies are being received at once (MAX_INFLIGHT_BODY_BYTES); retry after the given seconds',
    headers: {
      'Retry-After': { required: true, schema: { type: 'string', pattern: '^\\d+$' } },
      Connection: { required: true, schema: { const: 'close' } },
    },
    content: jsonContent({ $ref: '#/components/schemas/BodiesInFlight' }),
  },
} satisfies Record<string, Response>;

export type SharedResponse = keyof typeof SHARED_RESPONSES;

export function responseRef(name: SharedResponse | string): { $ref: string } {
  return { $ref: `#/components/responses/${name}` };
}

export const ERROR_COMPONENTS: Components = {
  schemas: { ControlError: CONTROL_ERROR, BodiesInFlight: BODIES_IN_FLIGHT },
  responses: SHARED_RESPONSES,
};

/** The responses every control operation that reads a JSON body shares. */
export const CONTROL_BODY_ERRORS = {
  '400': responseRef('ControlBadRequest'),
  '401': responseRef('ControlUnauthorized'),
  '403': responseRef('ControlForbidden'),
  '413': responseRef('ControlTooLarge'),
  '415': responseRef('ControlNotJson'),
  '503': responseRef('BodiesInFlight'),
} as const;

/** The refusals every /_sim/* operation shares, body or not (CONTROL_TOKEN, the guard). */
export const CONTROL_ACCESS_ERRORS = {
  '401': responseRef('ControlUnauthorized'),
  '403': responseRef('ControlForbidden'),
} as const;
