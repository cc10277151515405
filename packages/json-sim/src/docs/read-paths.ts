import { integer, schemaRef, type DocsContext, type OpenApiPart, type Parameter } from '@racedata/core';
import { CALENDAR_DATE } from './event-schemas';

const BEARER = [{ bearerToken: [] }];

function param(name: string, description: string, schema = integer(0)): Parameter {
  return { name, in: 'query', required: false, description: `${description} Given at most once.`, schema };
}

/** GET /customerapi/events and /customerapi/filtered-events (interface 4.3, 4.4). */
export function readPaths(ctx: DocsContext): OpenApiPart {
  const { eventsDefaultLimit, eventsMaxLimit, longPollTimeoutMs } = ctx.settings;
  const limit = param(
    'limit',
    `Most events in the page: 0 or omitted is the default (${eventsDefaultLimit}); above ${eventsMaxLimit} it is clamped.`,
  );
  const page = {
    description: 'An event page',
    content: { 'application/json': { schema: schemaRef('EventPage') } },
  };
  const errors = {
    '400': { $ref: '#/components/responses/JsonBadRequest' },
    '401': { $ref: '#/components/responses/JsonUnauthorized' },
  };
  return {
    paths: {
      '/customerapi/events': {
        get: {
          operationId: 'getEvents',
          summary: 'Durable events of the subscription after lastEventId (long poll)',
          description:
            'Answered at once when matching events exist, else held until a new durable event in the ' +
            `subscription arrives or ${longPollTimeoutMs} ms pass (LONG_POLL_TIMEOUT_MS). ` +
            'Other methods answer 404 (interface 7.3).',
          tags: ['production'],
          security: BEARER,
          parameters: [
            param(
              'lastEventId',
              'Events with a larger eventId; 0 for every stored event. Omitted: only the latest event (limit is then ignored).',
            ),
            limit,
          ],
          responses: {
            '200': page,
            '204': {
              description: `Nothing new within the long-poll wait (or a reset or shutdown ended the wait)`,
            },
            ...errors,
          },
        },
      },
      '/customerapi/filtered-events': {
        get: {
          operationId: 'getFilteredEvents',
          summary: 'Durable events of the subscription matching every filter (never held)',
          description: 'Other methods answer 404 (interface 7.3).',
          tags: ['production'],
          security: BEARER,
          parameters: [
            param('channel', 'A channel of your subscription; another is a 400 naming it.', {
              enum: ctx.catalog.names(),
            }),
            param('startDate', 'First event date; not after endDate.', CALENDAR_DATE),
            param('endDate', 'Last event date; not before startDate.', CALENDAR_DATE),
            limit,
            param('lastEventId', 'Events with a larger eventId.'),
            param('trackId', 'Exact track.'),
            param('raceNr', 'Exact race number.'),
            param('startNr', 'Exact start number.'),
          ],
          responses: { '200': page, '204': { description: 'No event matches' }, ...errors },
        },
      },
    },
  };
}
