import type { RecordingKind } from '@racedata/core';
import type { Anonymiser } from '../anonymise/index';
import { setOwn } from '../own-property';
import type { RecordingLineJson, RecordingLineLegacy } from '../recording-line-types';

/**
 * One file line through the anonymiser: split into the RecordingLine shape, transformed, and
 * written back with its keys in their original order, so an unchanged field keeps its bytes.
 * The line was checked by core's parseRecordingLine first, so its fields have their types.
 */
export function anonymiseFileLine(anonymiser: Anonymiser, kind: RecordingKind, text: string): string {
  const record = JSON.parse(text) as Record<string, unknown>;
  if (kind === 'legacy') {
    const line = anonymiser.legacyLine(record as unknown as RecordingLineLegacy);
    return serialise(record, { ...line });
  }
  const { at, delivery, ...message } = record;
  const line = anonymiser.jsonLine({ at, delivery, message } as RecordingLineJson);
  const flat: Record<string, unknown> = { at: line.at, delivery: line.delivery };
  for (const [key, value] of Object.entries(line.message)) setOwn(flat, key, value);
  return serialise(record, flat);
}

function serialise(original: Record<string, unknown>, next: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(original)) if (Object.hasOwn(next, key)) setOwn(out, key, next[key]);
  for (const key of Object.keys(next)) if (!Object.hasOwn(out, key)) setOwn(out, key, next[key]);
  return JSON.stringify(out);
}
