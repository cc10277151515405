import type { JsonSchema, JsonType } from '@racedata/core';

/** One way a value breaks its schema, with the JSON path to it. */
export interface SchemaProblem {
  /** `$.payload.placings[2].place` style, from the root the caller names. */
  readonly path: string;
  readonly message: string;
}

const typeOf = (value: unknown): JsonType =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : (typeof value as JsonType);

const fits = (value: unknown, type: JsonType) => {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
};

const IDENT = /^[A-Za-z_$][\w$]*$/;
const child = (path: string, key: string | number) =>
  typeof key === 'number'
    ? `${path}[${key}]`
    : IDENT.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;

const patterns = new Map<string, RegExp>();
const regex = (source: string) => {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source, 'u')));
  return re;
};

/**
 * Checks a value against a schema written with the keywords the payload schemas use (type,
 * const, enum, bounds, pattern, properties, required, additionalProperties, items); a schema
 * using another keyword is a programming error. Agreement with ajv's 2020-12 validator is held
 * by a property test. Stops at `max` problems.
 */
export function validateSchema(schema: JsonSchema, value: unknown, root = '$', max = 10): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const add = (path: string, message: string): void => {
    problems.push({ path, message });
  };
  const walk = (s: JsonSchema, v: unknown, path: string): void => {
    if (problems.length >= max) return;
    if (s.const !== undefined && v !== s.const) return add(path, `must be ${JSON.stringify(s.const)}`);
    if (s.enum && !s.enum.includes(v as never)) {
      return add(path, `must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    }
    if (s.type !== undefined) {
      const types = typeof s.type === 'string' ? [s.type] : s.type;
      if (!types.some((t) => fits(v, t))) return add(path, `must be ${types.join(' or ')}, not ${typeOf(v)}`);
    }
    if (typeof v === 'number') {
      if (s.minimum !== undefined && v < s.minimum) add(path, `must be at least ${s.minimum}`);
      if (s.maximum !== undefined && v > s.maximum) add(path, `must be at most ${s.maximum}`);
    }
    if (typeof v === 'string') {
      const length = [...v].length;
      if (s.minLength !== undefined && length < s.minLength)
        add(path, `must have at least ${s.minLength} characters`);
      if (s.maxLength !== undefined && length > s.maxLength)
        add(path, `must have at most ${s.maxLength} characters`);
      if (s.pattern !== undefined && !regex(s.pattern).test(v)) add(path, `must match ${s.pattern}`);
    }
    if (Array.isArray(v)) {
      if (s.minItems !== undefined && v.length < s.minItems)
        add(path, `must have at least ${s.minItems} items`);
      if (s.items) v.forEach((item, i) => walk(s.items!, item, child(path, i)));
    } else if (typeof v === 'object' && v !== null) {
      const obj = v as Record<string, unknown>;
      for (const key of s.required ?? []) {
        if (!Object.hasOwn(obj, key)) add(child(path, key), 'is required');
      }
      for (const [key, item] of Object.entries(obj)) {
        const prop = s.properties && Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
        if (prop !== undefined) {
          if (prop === false) add(child(path, key), 'is not allowed');
          else if (prop !== true) walk(prop, item, child(path, key));
        } else if (s.additionalProperties === false) {
          add(child(path, key), 'is not a field of this payload');
        } else if (typeof s.additionalProperties === 'object') {
          walk(s.additionalProperties, item, child(path, key));
        }
      }
    }
  };
  walk(schema, value, root);
  return problems.slice(0, max);
}
