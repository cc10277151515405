/**
 * The journal's own types, apart from journal.ts so that its ring and waiters depend on them
 * rather than on the journal that holds them. The entries as clients read them are in wire.ts.
 */
import type { ClosedEntry, DeliveredEntry, ReceivedEntry } from './wire';

export type ReceivedInput = Omit<ReceivedEntry, 'seq' | 'time' | 'kind'>;

export type DeliveredInput = Omit<DeliveredEntry, 'seq' | 'time' | 'kind'>;

export type ClosedInput = Omit<ClosedEntry, 'seq' | 'time' | 'kind'>;

/** An entry without its time, as journal listeners see it. */
export type JournalRecord =
  Omit<ReceivedEntry, 'time'> | Omit<DeliveredEntry, 'time'> | Omit<ClosedEntry, 'time'>;

/** Per label value, how many entries of a kind the journal was told of (GET /metrics reads them). */
export interface JournalCounts {
  /** By transport. */
  readonly delivered: ReadonlyMap<string, number>;
  /** By source. */
  readonly received: ReadonlyMap<string, number>;
  /** By `${transport} ${code}`. */
  readonly closed: ReadonlyMap<string, number>;
}
