import type { RecordingLineJson, RecordingLineLegacy } from './recording-line-types';

/**
 * What the recorder asks of the anonymiser (packages/recorder/src/anonymise, `Anonymiser`): a
 * transformed copy of each line, and what it changed. Declared here by shape so the recorder
 * depends on the agreed interface, not on the module.
 */
export interface LineTransformer {
  jsonLine(line: RecordingLineJson): RecordingLineJson;
  legacyLine(line: RecordingLineLegacy): RecordingLineLegacy;
  summary(): {
    readonly replaced: Record<string, number>;
    readonly redacted: Record<string, number>;
    readonly messages: number;
  };
}

/** What --anonymise, --salt and --redact ask for (the anonymiser's AnonymiseOptions). */
export interface AnonymiseRequest {
  readonly salt: string;
  readonly extraNameFields?: readonly string[];
  readonly redact?: readonly string[];
  readonly anonymiseNames: boolean;
}
