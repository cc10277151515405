import type { RecordingLineJson, RecordingLineLegacy } from '../recording-line-types';
import { recorderError } from '../errors';
import { transformJsonMessage } from './json-transform';
import type { TransformContext } from './name-context';
import { nameFieldRules } from './name-fields';
import { PseudonymBook } from './pseudonyms';
import { parseRedactSpecs } from './redact-specs';
import { SummaryCounter, type AnonymiseSummary } from './summary';
import { transformXml } from './xml-transform';

export interface AnonymiseOptions {
  /** Same salt -> same pseudonyms, across runs and both simulators. */
  readonly salt: string;
  /** Field, attribute or element names to treat as names too. */
  readonly extraNameFields?: readonly string[];
  /** JSON paths (a.b.c, or a bare field name = everywhere) or XML attribute/element names to drop. */
  readonly redact?: readonly string[];
  /** --anonymise; redact works without it. */
  readonly anonymiseNames: boolean;
  /** Bound on the pseudonym book's memory; the default suits a day of any real feed. */
  readonly bookBudgetBytes?: number;
}

export interface Anonymiser {
  /** A recording line object as written to recordings/json/*.jsonl (its `message` is POST /api/message's body): returns the transformed copy. */
  jsonLine(line: RecordingLineJson): RecordingLineJson;
  /** A recording line object as written to recordings/legacy/*.jsonl (its `xml`, `payloadKey`): returns the transformed copy. */
  legacyLine(line: RecordingLineLegacy): RecordingLineLegacy;
  summary(): AnonymiseSummary;
}

/**
 * One anonymiser per recording: its pseudonym book is shared by the JSON and the legacy lines,
 * so a horse gets the same pseudonym in both simulators' files. A line it cannot transform
 * safely throws (ANONYMISE_XML_MALFORMED, ANONYMISE_TOO_DEEP) and counts nothing; its caller
 * skips it rather than write it. `payloadKey`, `channel`, `at` and `delivery` are never changed.
 */
export function createAnonymiser(options: AnonymiseOptions): Anonymiser {
  if (options.anonymiseNames && options.salt.length === 0) {
    throw recorderError('ANONYMISE_OPTIONS_INVALID', '--salt must not be empty');
  }
  const summary = new SummaryCounter();
  const base = {
    rules: nameFieldRules(options.extraNameFields),
    book: new PseudonymBook(options.salt, options.bookBudgetBytes),
    redact: parseRedactSpecs(options.redact),
    anonymiseNames: options.anonymiseNames,
  };
  const idle = !options.anonymiseNames && base.redact.names.size === 0 && base.redact.paths.size === 0;
  const tallied = <T>(transform: (ctx: TransformContext) => T): T => {
    const ctx = { ...base, summary: new SummaryCounter() };
    const result = transform(ctx);
    ctx.summary.message();
    summary.merge(ctx.summary);
    return result;
  };
  return {
    jsonLine(line) {
      const message = tallied((ctx) =>
        idle ? { ...line.message } : transformJsonMessage(ctx, line.message),
      );
      return { ...line, message };
    },
    legacyLine(line) {
      const xml = tallied((ctx) => (idle ? line.xml : transformXml(ctx, line.xml)));
      return { ...line, xml };
    },
    summary: () => summary.snapshot(),
  };
}
