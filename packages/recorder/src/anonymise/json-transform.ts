import type { NameCategory } from './name-fields';
import { nameCategoryOf, replaceName, type TransformContext } from './name-context';
import { redactableJsonKey } from './redact-specs';
import { MAX_JSON_DEPTH } from '@racedata/core';
import { recorderError } from '../errors';
import { setOwn } from '../own-property';

/** What POST /api/message accepts, and every recording line reader (core's parseRecordingLine) too. */
export const MAX_DEPTH = MAX_JSON_DEPTH;

/**
 * A copy of a POST /api/message body with names replaced and redacted fields dropped. Keys keep
 * their order and every other value is passed through as it was, so the line serialises to the
 * same bytes apart from the replaced and dropped fields.
 */
export function transformJsonMessage(
  ctx: TransformContext,
  message: Record<string, unknown>,
): Record<string, unknown> {
  return walkObject(ctx, message, '', 0, undefined);
}

function walkObject(
  ctx: TransformContext,
  object: Record<string, unknown>,
  path: string,
  depth: number,
  enclosing: NameCategory | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    const at = path === '' ? key : `${path}.${key}`;
    const spec = redactSpec(ctx, key, at, depth);
    if (spec !== undefined) {
      ctx.summary.redactedBy(spec);
      continue;
    }
    const category = nameCategoryOf(ctx, key, enclosing);
    setOwn(out, key, walkValue(ctx, value, key, at, depth + 1, category, category ?? enclosing));
  }
  return out;
}

function walkValue(
  ctx: TransformContext,
  value: unknown,
  key: string,
  path: string,
  depth: number,
  category: NameCategory | undefined,
  enclosing: NameCategory | undefined,
): unknown {
  if (typeof value === 'string') return category ? replaceName(ctx, category, key, value) : value;
  if (typeof value !== 'object' || value === null) return value;
  // Checked before going a level down, arrays counted too: the walk recurses once per level.
  if (depth > MAX_DEPTH) {
    throw recorderError('ANONYMISE_TOO_DEEP', `message nests deeper than ${MAX_DEPTH} levels`);
  }
  // Arrays are transparent to paths (payload.starters.trainer reaches every starter's trainer),
  // not to depth.
  if (Array.isArray(value)) {
    return value.map((item) => walkValue(ctx, item, key, path, depth + 1, category, enclosing));
  }
  return walkObject(ctx, value as Record<string, unknown>, path, depth, enclosing);
}

function redactSpec(ctx: TransformContext, key: string, path: string, depth: number): string | undefined {
  if (ctx.redact.paths.has(path)) return path;
  return redactableJsonKey(depth, key) ? ctx.redact.names.get(key) : undefined;
}
