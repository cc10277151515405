import {
  CONTROL_ACCESS_ERRORS,
  CONTROL_BODY_ERRORS,
  controlError,
  jsonContent,
  objectSchema,
  type OpenApiPart,
  schemaRef,
} from '@racedata/core';
import { PAYLOAD_SCHEMAS } from '@racedata/race-day';
import { controlOperation } from './control-paths';
import { RACE_DAY_SCHEMAS } from './race-day-schemas';

const json = (description: string, schema: object) => ({ description, content: jsonContent(schema) });

const BAD_DAY = json(
  'The body is invalid, an option is out of range (date, seed, meetings, speed, at), an edge case is unknown (the message lists the known ids), or a placement names a race the day does not have; the day plays on as it was',
  controlError(['VALIDATION_FAILED', 'MALFORMED_JSON', 'RACE_DAY_INVALID', 'RACE_DAY_NO_SUCH_RACE']),
);

/** The payload schemas as components: what event payloads, Data messages and POST /api/message refer to. */
export function payloadSchemaComponents(): Record<string, object> {
  return Object.fromEntries(
    Object.entries(PAYLOAD_SCHEMAS).map(([channel, { $schema: _dialect, $id: _id, ...schema }]) => [
      `Payload${channel}`,
      schema,
    ]),
  );
}

/** GET/POST/DELETE /_sim/race-day and GET /_sim/schemas[/{channel}]. */
export function raceDayPaths(): OpenApiPart {
  const channels = Object.keys(PAYLOAD_SCHEMAS);
  return {
    paths: {
      '/_sim/race-day': {
        get: controlOperation({
          operationId: 'getRaceDay',
          summary:
            "The race day as it stands on this simulator's clock: meetings, races with phases, starters, edge cases",
          responses: {
            '200': json('The plan and how it plays', schemaRef('RaceDayState')),
            ...CONTROL_ACCESS_ERRORS,
            '404': json('No race day is playing', controlError(['RACE_DAY_NOT_RUNNING'])),
          },
        }),
        post: controlOperation({
          operationId: 'startRaceDay',
          summary: 'Generate a race day and play it from now (both simulators of `racedata-sim all`)',
          description:
            'The day already due is stored (JSON) and queued (legacy) at once as history; the rest plays on the clock. ' +
            'Starting again appends the new day’s history to what is stored: POST /_sim/reset first for a clean store.',
          requestBody: { required: false, content: jsonContent(schemaRef('RaceDayRequest')) },
          responses: {
            '200': json('The new day as it stands', schemaRef('RaceDayState')),
            ...CONTROL_BODY_ERRORS,
            '400': BAD_DAY,
          },
        }),
        delete: controlOperation({
          operationId: 'stopRaceDay',
          summary: 'Stop the race day; what was stored and queued stays',
          responses: {
            '200': json('Whether a day was playing', objectSchema({ stopped: { type: 'boolean' } })),
            ...CONTROL_ACCESS_ERRORS,
          },
        }),
      },
      '/_sim/schemas': {
        get: controlOperation({
          operationId: 'getPayloadSchemas',
          summary:
            'The payload schemas (JSON Schema 2020-12) of the JSON channels, and how legacy XML maps onto them',
          responses: { '200': json('The index', schemaRef('SchemaIndex')), ...CONTROL_ACCESS_ERRORS },
        }),
      },
      '/_sim/schemas/{channel}': {
        get: controlOperation({
          operationId: 'getPayloadSchema',
          summary: "One JSON channel's payload schema",
          parameters: [{ name: 'channel', in: 'path', required: true, schema: { enum: channels } }],
          responses: {
            '200': {
              description: 'The schema, as application/schema+json',
              content: {
                'application/schema+json': { schema: { type: 'object', required: ['$schema', '$id'] } },
              },
            },
            ...CONTROL_ACCESS_ERRORS,
            '404': json('No schema for that channel; the message lists them', controlError(['NOT_FOUND'])),
          },
        }),
      },
    },
    components: { schemas: { ...RACE_DAY_SCHEMAS, ...payloadSchemaComponents() } },
  };
}
