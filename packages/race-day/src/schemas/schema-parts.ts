import type { JsonSchema } from '@racedata/core';

/** Building blocks of the payload schemas: only keywords that mean the same in draft-07 and 2020-12. */

export const LOCAL_TIME: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$',
  description: 'Local Swedish time with its offset, e.g. 2024-05-11T14:45:00+02:00',
};
export const DATE: JsonSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
export const TEXT: JsonSchema = { type: 'string', minLength: 1 };
export const START_NR: JsonSchema = { type: 'integer', minimum: 1, maximum: 99 };
export const COUNT: JsonSchema = { type: 'integer', minimum: 0 };
export const POSITIVE: JsonSchema = { type: 'integer', minimum: 1 };
export const SECONDS: JsonSchema = { type: 'number', minimum: 0 };
export const METRES: JsonSchema = { type: 'integer', minimum: 0, maximum: 5000 };
export const KM_TIME: JsonSchema = {
  type: 'string',
  pattern: '^\\d\\.\\d{2},\\d(a)?$',
  description: 'Kilometre time, minutes.seconds,tenths; `a` for an autostart (1.12,5a)',
};
export const RACE_TIME: JsonSchema = {
  type: 'string',
  pattern: '^\\d+:\\d{2}\\.\\d{2}$',
  description: 'm:ss.hh',
};
export const START_METHOD: JsonSchema = { enum: ['auto', 'volte'] };
export const SURFACE: JsonSchema = { enum: ['dirt', 'turf'] };
export const SEX: JsonSchema = { enum: ['mare', 'gelding', 'stallion'] };

/** An object with exactly these properties; `optional` ones may be left out. */
export function object(
  properties: Readonly<Record<string, JsonSchema>>,
  optional: readonly string[] = [],
  description?: string,
): JsonSchema {
  return {
    type: 'object',
    ...(description && { description }),
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

export const array = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description && { description }),
});
