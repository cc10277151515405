/**
 * The JSON Schema keywords the served documents use, as a type: a misspelt keyword in a
 * document literal is a compile error rather than a schema that silently allows everything.
 * Only keywords that mean the same in draft-07 (AsyncAPI payloads) and 2020-12 (OpenAPI 3.1).
 */
export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface JsonSchema {
  readonly $ref?: string;
  readonly title?: string;
  readonly description?: string;
  readonly type?: JsonType | readonly JsonType[];
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  readonly format?: 'date' | 'date-time' | 'uuid' | 'uri-reference';
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, JsonSchema | boolean>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchema | boolean;
  readonly propertyNames?: JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly oneOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly if?: JsonSchema;
  readonly then?: JsonSchema;
  readonly else?: JsonSchema;
}

/** An object whose properties are exactly these; `required` lists the ones always present. */
export function objectSchema(
  properties: Readonly<Record<string, JsonSchema | boolean>>,
  required: readonly string[] = Object.keys(properties),
  extra: Omit<JsonSchema, 'type' | 'properties' | 'required'> = {},
): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/** A whole number in [minimum, maximum]. */
export function integer(minimum?: number, maximum?: number, description?: string): JsonSchema {
  return {
    type: 'integer',
    ...(minimum !== undefined && { minimum }),
    ...(maximum !== undefined && { maximum }),
    ...(description !== undefined && { description }),
  };
}

export const COUNT: JsonSchema = integer(0);

/** A reference to a schema of the document's components. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}
