import { getJson } from './api';
import type { AnyJournalEntry } from '../../control/src/wire';

/** A race a message is about. */
export interface RaceRef {
  readonly trackId: number;
  readonly raceNr: number;
}

/** Received entries looked up at most, newest first: the payload ring drops older ones anyway. */
const LOOKED_UP = 500;
/** Payload requests in flight at once. */
const PARALLEL = 3;

/** trackId and raceNr of a JSON event or the root element of a legacy XML document. */
export function raceOfPayload(text: string): RaceRef | undefined {
  const t = text.trimStart();
  if (t.startsWith('<')) {
    const root = /<(?!\?)[^>]*>/.exec(t)?.[0] ?? '';
    const track = /\btrackId="(\d+)"/.exec(root);
    const race = /\braceNr="(\d+)"/.exec(root);
    return track && race ? { trackId: Number(track[1]), raceNr: Number(race[1]) } : undefined;
  }
  try {
    const event = JSON.parse(t) as { trackId?: unknown; raceNr?: unknown };
    return typeof event.trackId === 'number' && typeof event.raceNr === 'number'
      ? { trackId: event.trackId, raceNr: event.raceNr }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which race each received message is about, read from its payload (GET /_sim/messages/{seq}):
 * the journal's entries name no race. Looked up only while the feed filters by race, newest
 * first, and kept per seq; `onChange` fires as answers come in.
 */
export class RaceIndex {
  private readonly known = new Map<number, RaceRef | null>();
  private readonly asked = new Set<number>();
  private inFlight = 0;
  private queue: number[] = [];

  constructor(private readonly onChange: () => void) {}

  /** The race of a received entry: undefined while not known yet, null when it names none. */
  raceOf(seq: number): RaceRef | null | undefined {
    return this.known.get(seq);
  }

  /** Asks for the races of the newest received entries not looked up yet. */
  lookUp(entries: readonly AnyJournalEntry[]): void {
    const wanted: number[] = [];
    for (let i = entries.length - 1; i >= 0 && wanted.length < LOOKED_UP; i--) {
      const e = entries[i]!;
      if (e.kind !== 'received') continue;
      if (!this.asked.has(e.seq)) wanted.push(e.seq);
    }
    for (const seq of wanted) this.asked.add(seq);
    this.queue.push(...wanted);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < PARALLEL && this.queue.length > 0) {
      const seq = this.queue.shift()!;
      this.inFlight += 1;
      getJson<{ payload: string }>(`/_sim/messages/${seq}`)
        .then(
          (body) => this.known.set(seq, raceOfPayload(body.payload) ?? null),
          // Dropped from the payload ring (or never kept): no race to show it under.
          () => this.known.set(seq, null),
        )
        .finally(() => {
          this.inFlight -= 1;
          this.onChange();
          this.pump();
        });
    }
  }
}
