import { streamUrl } from './api';
import type { ConsoleStateEvent, AnyJournalEntry } from '../../control/src/wire';

/** Entries kept in the page's memory; the table renders only the newest of them. */
export const KEPT_ENTRIES = 5000;

/** `ended`: a certification's simulator closed after its run; the page keeps its last state. */
export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'ended';

export interface FeedSnapshot {
  entries: readonly AnyJournalEntry[];
  state: ConsoleStateEvent | undefined;
  /** performance.now() when `state` arrived: its `time` plus the time since is the simulator's now. */
  stateAt: number;
  status: FeedStatus;
  /** Entries that arrived since the page opened, kept or not. */
  total: number;
}

/**
 * The /_sim/stream EventSource. Entries are collected as they arrive and handed to the view at
 * most once per animation frame, so 200 entries a second cost a few renders, not 200.
 */
export class LiveFeed {
  private entries: AnyJournalEntry[] = [];
  private state: ConsoleStateEvent | undefined;
  private stateAt = 0;
  private status: FeedStatus = 'connecting';
  private total = 0;
  private lastSeq = 0;
  private frame = 0;
  private source: EventSource | undefined;
  private readonly listeners = new Set<(snapshot: FeedSnapshot) => void>();

  start(): void {
    const source = new EventSource(streamUrl());
    this.source = source;
    source.addEventListener('open', () => this.setStatus('live'));
    source.addEventListener('error', () => {
      // A certification's simulator closes when its suite ends: nothing comes back to reconnect to.
      const phase = this.state?.certification?.phase;
      if (phase === 'finished' || phase === 'aborted') {
        source.close();
        this.setStatus('ended');
        return;
      }
      this.setStatus('reconnecting');
    });
    source.addEventListener('entry', (event) => {
      const entry = JSON.parse((event as MessageEvent<string>).data) as AnyJournalEntry;
      // A reconnect replays what the server still holds; keep each entry once.
      if (entry.seq <= this.lastSeq) return;
      this.lastSeq = entry.seq;
      this.entries.push(entry);
      this.total += 1;
      if (this.entries.length > KEPT_ENTRIES * 1.2) this.entries = this.entries.slice(-KEPT_ENTRIES);
      this.schedule();
    });
    source.addEventListener('state', (event) => {
      this.state = JSON.parse((event as MessageEvent<string>).data) as ConsoleStateEvent;
      this.stateAt = performance.now();
      // A journal cleared by reset starts below what was seen; take its entries again.
      if (this.state.journal.lastSeq < this.lastSeq) this.lastSeq = this.state.journal.lastSeq;
      this.schedule();
    });
  }

  stop(): void {
    this.source?.close();
  }

  /** Forgets the rows shown (the journal itself is untouched). */
  clear(): void {
    this.entries = [];
    this.schedule();
  }

  subscribe(listener: (snapshot: FeedSnapshot) => void): () => void {
    this.listeners.add(listener);
    listener(this.snapshot());
    return () => this.listeners.delete(listener);
  }

  private setStatus(status: FeedStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.schedule();
  }

  private snapshot(): FeedSnapshot {
    const { entries, state, stateAt, status, total } = this;
    return { entries, state, stateAt, status, total };
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      // A new array each time, so the view sees a change.
      this.entries = this.entries.slice();
      const snapshot = this.snapshot();
      for (const listener of this.listeners) listener(snapshot);
    });
  }
}
