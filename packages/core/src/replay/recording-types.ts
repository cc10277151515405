import { shownName } from '../shown-name';
import type { ChannelKind } from '../channel-catalog';
import type { EventInput } from '../event-input';

/** Which simulator a recording feeds: legacy XML documents or JSON events. */
export type RecordingKind = 'legacy' | 'json';

export const RECORDING_KINDS: readonly RecordingKind[] = ['legacy', 'json'];

/** How a recorded message was delivered: stored and long-polled, or broadcast once. */
export type Delivery = ChannelKind;

interface RecordedBase {
  /** Recorded time, ms since the epoch; only the gaps between messages matter for replay. */
  readonly at: number;
  readonly delivery: Delivery;
  /** Where the message came from, `file.jsonl:12`, for logs and error reports. */
  readonly source: string;
}

export interface RecordedLegacyMessage extends RecordedBase {
  readonly kind: 'legacy';
  /** A catalog channel name, or `id` for every user (the vendor's injection example). */
  readonly channel: string;
  readonly payloadKey: string;
  readonly xml: string;
}

export interface RecordedJsonMessage extends RecordedBase {
  readonly kind: 'json';
  /** Exactly the body of `POST /api/message`, so a replay posts it unchanged. */
  readonly message: EventInput;
}

export type RecordedMessage = RecordedLegacyMessage | RecordedJsonMessage;

export type RecordedMessageOf<K extends RecordingKind> = K extends 'legacy'
  ? RecordedLegacyMessage
  : RecordedJsonMessage;

/** One reason a recording file was refused. `line` is absent for file-level problems. */
export interface RecordingProblem {
  readonly file: string;
  readonly line?: number;
  readonly message: string;
}

/** `file:line: message`, the file quoted when its name could forge or reorder the output. */
export function formatProblem(problem: RecordingProblem): string {
  const file = shownName(problem.file);
  const where = problem.line === undefined ? file : `${file}:${problem.line}`;
  return `${where}: ${problem.message}`;
}
