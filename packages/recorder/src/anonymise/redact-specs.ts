import { recorderError } from '../errors';

/** The --redact entries, split into bare names (everywhere) and dotted paths (from the root). */
export interface RedactSpecs {
  /** Bare field, attribute or element name -> the entry as given (the summary's key). */
  readonly names: ReadonlyMap<string, string>;
  /** Dotted path -> its segments. */
  readonly paths: ReadonlyMap<string, readonly string[]>;
}

// A JSON line without these is refused by the loader (recordings/README.md), so no path may drop them.
const REQUIRED_JSON_FIELDS = new Set(['channel', 'date', 'payload']);
const SEGMENT = /^[^\s.]+$/;

export function parseRedactSpecs(entries: readonly string[] = []): RedactSpecs {
  const names = new Map<string, string>();
  const paths = new Map<string, readonly string[]>();
  for (const raw of entries) {
    const entry = raw.trim();
    const segments = entry.split('.');
    if (entry === '' || !segments.every((s) => SEGMENT.test(s))) {
      throw recorderError(
        'ANONYMISE_OPTIONS_INVALID',
        `--redact "${raw}": expected a field name or a dotted path such as payload.starters.trainer`,
      );
    }
    if (segments.length === 1) {
      names.set(entry, entry);
    } else {
      paths.set(entry, segments);
    }
  }
  return { names, paths };
}

/** Whether a bare name may drop this JSON key: never a required field of the line itself. */
export function redactableJsonKey(depth: number, key: string): boolean {
  return depth > 0 || !REQUIRED_JSON_FIELDS.has(key);
}
