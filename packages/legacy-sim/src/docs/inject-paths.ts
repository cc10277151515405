import { jsonContent, schemaRef, type Operation, type OpenApiPart } from '@racedata/core';
import { MAX_PAYLOAD_KEY_CHARS } from '../http/inject-routes';
import { legacyError, responseOf } from './legacy-responses';

function inject(operationId: string, summary: string, description: string): Operation {
  return {
    operationId,
    summary,
    description:
      `${description} The body is read as XML whatever the content type says (the vendor example labels ` +
      'it application/json); its charset comes from the content type, else the XML declaration, else UTF-8.',
    tags: ['simulator'],
    security: [{}],
    parameters: [
      { name: 'channelId', in: 'path', required: true, schema: schemaRef('ChannelId') },
      {
        name: 'payloadKey',
        in: 'query',
        required: false,
        description: 'Identifies the message in the journal and the STOMP body; at most once',
        schema: { type: 'string', maxLength: MAX_PAYLOAD_KEY_CHARS },
      },
    ],
    requestBody: {
      required: true,
      description: 'One well-formed XML document; no DOCTYPE',
      content: { '*/*': { schema: { type: 'string', minLength: 1 } } },
    },
    responses: {
      '200': { description: 'Accepted', content: jsonContent(schemaRef('Injected')) },
      '400': {
        description:
          'An unknown channel, a repeated or too long payloadKey, an empty body, XML that is not ' +
          'well-formed, or a DOCTYPE; nothing was queued or sent',
        content: jsonContent(
          legacyError([
            'UNKNOWN_CHANNEL',
            'BAD_REQUEST',
            'EMPTY_BODY',
            'INVALID_XML',
            'XML_DOCTYPE_FORBIDDEN',
          ]),
        ),
      },
      '413': responseOf('LegacyTooLarge'),
      '415': responseOf('LegacyUnsupportedCharset'),
      '503': responseOf('BodiesInFlight'),
    },
  };
}

/** POST /customerapi/channel/{channelId}/Durable and /NonDurable (interface 4.6). */
export function injectPaths(): OpenApiPart {
  return {
    paths: {
      '/customerapi/channel/{channelId}/Durable': {
        post: inject(
          'injectDurable',
          'Queue an XML message for the listen long poll',
          "Queued for every matching user's GET /customerapi/channels/listen.",
        ),
      },
      '/customerapi/channel/{channelId}/NonDurable': {
        post: inject(
          'injectNonDurable',
          'Send an XML message once to the STOMP subscribers',
          'Sent once as a STOMP MESSAGE to every connected, matching subscriber (see /_sim/asyncapi.json); never queued.',
        ),
      },
    },
  };
}
