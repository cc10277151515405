import type { NameCategory } from './name-fields';
import { nameCategoryOf, replaceName, type TransformContext } from './name-context';
import { redactableJsonKey } from './redact-specs';
import { recorderError } from '../errors';
import { setOwn } from '../own-property';

/** Far deeper than any message of the interface; core caps posted JSON well below this too. */
export const MAX_DEPTH = 256;

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
  if (depth > MAX_DEPTH) throw recorderError('ANONYMISE_TOO_DEEP', `message nests deeper than ${MAX_DEPTH}`);
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
  // Arrays are transparent to paths: payload.starters.trainer reaches every starter's trainer.
  if (Array.isArray(value)) {
    return value.map((item) => walkValue(ctx, item, key, path, depth, category, enclosing));
  }
  if (typeof value === 'object' && value !== null) {
    return walkObject(ctx, value as Record<string, unknown>, path, depth, enclosing);
  }
  return value;
}

function redactSpec(ctx: TransformContext, key: string, path: string, depth: number): string | undefined {
  if (ctx.redact.paths.has(path)) return path;
  return redactableJsonKey(depth, key) ? ctx.redact.names.get(key) : undefined;
}
