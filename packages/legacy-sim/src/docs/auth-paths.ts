import { jsonContent, schemaRef, type Operation, type OpenApiPart, type Response } from '@racedata/core';
import { legacyError, responseOf } from './legacy-responses';

const TOKEN_ISSUED: Response = {
  description: 'Authenticated; the token is in the authorization header',
  headers: {
    authorization: {
      required: true,
      description: 'Bearer and the fixed token of the user, or a JWT in jwt token mode',
      schema: { type: 'string', pattern: '^Bearer \\S+$' },
    },
  },
  content: jsonContent(schemaRef('Authenticated')),
};

const COMMON = {
  '401': { description: 'Wrong key or secret', content: jsonContent(legacyError(['CREDENTIALS_INVALID'])) },
  '413': responseOf('LegacyTooLarge'),
  '415': responseOf('LegacyUnsupportedCharset'),
  '503': responseOf('BodiesInFlight'),
};

function subscription(operationId: string, summary: string): Operation {
  return {
    operationId,
    summary,
    description: 'The body is read as JSON whatever its content type.',
    tags: ['production'],
    security: [{}],
    requestBody: { required: true, content: jsonContent(schemaRef('Credentials')) },
    responses: {
      '200': TOKEN_ISSUED,
      '400': {
        description: 'No body, not a JSON object, a missing or blank key or secret, or malformed JSON',
        content: jsonContent(legacyError(['VALIDATION_FAILED', 'MALFORMED_JSON', 'BAD_REQUEST'])),
      },
      ...COMMON,
    },
  };
}

/** The long authentication path (interface 4.1) and the vendor simulator's short Basic one. */
export function authPaths(): OpenApiPart {
  return {
    paths: {
      '/customerapi/authenticate/subscription': {
        post: subscription('authenticate', 'Trade a key and secret for a bearer token'),
      },
      // The vendor's example posts with a trailing slash; express routes both spellings here.
      '/customerapi/authenticate/subscription/': {
        post: subscription('authenticateTrailingSlash', 'The same, spelt as in the vendor example'),
      },
      '/authenticate': {
        post: {
          operationId: 'authenticateBasic',
          summary: "The vendor simulator's short path: HTTP Basic credentials",
          description:
            'With an Authorization header only Basic credentials count and the body is ignored; ' +
            'without one, the JSON body of the long path is read.',
          tags: ['production'],
          security: [{ basicCredentials: [] }, {}],
          requestBody: { required: false, content: jsonContent(schemaRef('Credentials')) },
          responses: {
            '200': TOKEN_ISSUED,
            '400': {
              description:
                'No credentials, an Authorization header that is not Basic base64(key:secret), a blank ' +
                'key or secret, or malformed JSON',
              content: jsonContent(legacyError(['BAD_REQUEST', 'VALIDATION_FAILED', 'MALFORMED_JSON'])),
            },
            ...COMMON,
          },
        },
      },
    },
  };
}
