import type { NameCategory, NameFieldRules } from './name-fields';
import type { PseudonymBook } from './pseudonyms';
import type { RedactSpecs } from './redact-specs';
import type { SummaryCounter } from './summary';

/** What the JSON and XML walkers share: one book, so both forms of a name get one pseudonym. */
export interface TransformContext {
  readonly rules: NameFieldRules;
  readonly book: PseudonymBook;
  readonly redact: RedactSpecs;
  readonly summary: SummaryCounter;
  readonly anonymiseNames: boolean;
}

/**
 * The category a field's string value is a name of: its own name says so (`horse`), or it is
 * the name inside a name field (`driver: {name}`, `<Driver name="..."/>`), whose category it takes.
 */
export function nameCategoryOf(
  ctx: TransformContext,
  field: string,
  enclosing: NameCategory | undefined,
): NameCategory | undefined {
  if (!ctx.anonymiseNames) return undefined;
  return ctx.rules.categoryOf(field) ?? (enclosing && ctx.rules.isInnerName(field) ? enclosing : undefined);
}

/** The pseudonym of a name value, counted under its field; an empty value is not a name. */
export function replaceName(
  ctx: TransformContext,
  category: NameCategory,
  field: string,
  value: string,
): string {
  if (value.trim() === '') return value;
  ctx.summary.replacedIn(field);
  return ctx.book.pseudonym(category, value);
}
