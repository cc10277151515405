import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, getJson } from './api';
import { clockTime, formatPayload } from './format';
import type { FeedSnapshot } from './live-feed';
import { RaceIndex, type RaceRef } from './race-index';
import type { CatalogChannel, AnyJournalEntry, UserInfo } from '../../control/src/wire';
import { DocLink } from './doc-link';

/** Rows in the DOM at most: the newest matching entries. */
export const SHOWN_ROWS = 200;

interface Props {
  feed: FeedSnapshot;
  users: UserInfo[];
  catalog: CatalogChannel[];
  transports: readonly string[];
  /** Only the messages about this race (picked on the race board), and their deliveries. */
  race?: RaceRef | undefined;
  onClearRace?: () => void;
  onClear: () => void;
}

interface Filters {
  user: string;
  channel: string;
  transport: string;
}

function matches(entry: AnyJournalEntry, f: Filters): boolean {
  if (f.user && entry.user !== f.user) return false;
  if (f.channel && entry.channel !== f.channel) return false;
  if (f.transport && (entry.transport ?? entry.source) !== f.transport) return false;
  return true;
}

function deliveryOf(entry: AnyJournalEntry, kinds: Map<string, string>): string {
  if (entry.durable !== undefined) return entry.durable ? 'durable' : 'transient';
  return entry.channel ? (kinds.get(entry.channel) ?? '') : '';
}

function refOf(entry: AnyJournalEntry): string {
  if (entry.eventId !== undefined) return `eventId ${entry.eventId}`;
  if (entry.payloadKey) return entry.payloadKey;
  if (entry.kind === 'closed') return `close ${entry.code}`;
  return '';
}

const KIND_LABEL = { received: 'in', delivered: 'out', closed: 'closed' } as const;

/**
 * The received entry each entry's message came in with: by eventId, else by the latest received
 * payloadKey before it. One pass over the entries, so a filter by race costs no scan per row.
 */
function receivedSeqs(entries: readonly AnyJournalEntry[]): Map<number, number> {
  const byEvent = new Map<number, number>();
  const byKey = new Map<string, number>();
  const out = new Map<number, number>();
  for (const e of entries) {
    if (e.kind === 'received') {
      if (e.eventId !== undefined) byEvent.set(e.eventId, e.seq);
      if (e.payloadKey) byKey.set(e.payloadKey, e.seq);
      out.set(e.seq, e.seq);
      continue;
    }
    const from =
      e.eventId !== undefined ? byEvent.get(e.eventId) : e.payloadKey ? byKey.get(e.payloadKey) : undefined;
    if (from !== undefined) out.set(e.seq, from);
  }
  return out;
}

export function LiveView({ feed, users, catalog, transports, race, onClearRace, onClear }: Props) {
  const [, setLookedUp] = useState(0);
  const index = useMemo(() => new RaceIndex(() => setLookedUp((n) => n + 1)), []);
  const [filters, setFilters] = useState<Filters>({ user: '', channel: '', transport: '' });
  const [paused, setPaused] = useState<readonly AnyJournalEntry[] | undefined>(undefined);
  const [selected, setSelected] = useState<AnyJournalEntry | undefined>(undefined);
  const kinds = useMemo(() => new Map(catalog.map((c) => [c.name, c.kind])), [catalog]);
  const source = paused ?? feed.entries;
  useEffect(() => {
    if (race) index.lookUp(source);
  }, [race, source, index]);
  const origins = useMemo(() => (race ? receivedSeqs(source) : undefined), [race, source]);
  const aboutRace = (entry: AnyJournalEntry): boolean => {
    if (!race || !origins) return true;
    const from = origins.get(entry.seq);
    const ref = from === undefined ? undefined : index.raceOf(from);
    return !!ref && ref.trackId === race.trackId && ref.raceNr === race.raceNr;
  };
  // Recomputed on each render while a race filter is on: its answers arrive one by one.
  const rows = (() => {
    const shown: AnyJournalEntry[] = [];
    for (let i = source.length - 1; i >= 0 && shown.length < SHOWN_ROWS; i--) {
      const entry = source[i]!;
      if (matches(entry, filters) && aboutRace(entry)) shown.push(entry);
    }
    return shown;
  })();
  const set = (key: keyof Filters) => (event: Event) =>
    setFilters({ ...filters, [key]: (event.currentTarget as HTMLSelectElement).value });
  const waiting = paused ? feed.entries.length - paused.length : 0;
  const selectedShown = selected !== undefined && rows.some((r) => r.seq === selected.seq);

  return (
    <section class="live" aria-labelledby="live-title">
      <div class="bar">
        <h2 id="live-title">
          Live messages <DocLink page="console.md" what="the live view" />
        </h2>
        <label>
          User
          <select id="filter-user" value={filters.user} onChange={set('user')}>
            <option value="">all</option>
            {users.map((u) => (
              <option value={u.key}>{u.key}</option>
            ))}
          </select>
        </label>
        <label>
          Channel
          <select id="filter-channel" value={filters.channel} onChange={set('channel')}>
            <option value="">all</option>
            {catalog.map((c) => (
              <option value={c.name}>{c.name}</option>
            ))}
          </select>
        </label>
        <label>
          Transport
          <select id="filter-transport" value={filters.transport} onChange={set('transport')}>
            <option value="">all</option>
            {transports.map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
        </label>
        {race && (
          <button type="button" id="filter-race" aria-pressed="true" onClick={onClearRace}>
            Race {race.raceNr} at track {race.trackId} ✕
          </button>
        )}
        <button
          type="button"
          id="live-pause"
          aria-pressed={paused !== undefined}
          onClick={() => setPaused(paused ? undefined : feed.entries)}
        >
          {paused ? `Resume view${waiting > 0 ? ` (${waiting} new)` : ''}` : 'Pause view'}
        </button>
        <button type="button" onClick={onClear}>
          Clear rows
        </button>
        <span class="count" aria-live="off">
          {feed.total} entries · showing {rows.length}
        </span>
      </div>
      <div class="table-wrap" aria-label="Messages received and delivered, newest first">
        <table id="live-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Dir</th>
              <th scope="col">Channel</th>
              <th scope="col">Delivery</th>
              <th scope="col">User</th>
              <th scope="col">Transport</th>
              <th scope="col">eventId / payloadKey</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((entry, index) => (
              <tr
                key={entry.seq}
                data-seq={entry.seq}
                data-kind={entry.kind}
                class={`row-${entry.kind}${selected?.seq === entry.seq ? ' selected' : ''}`}
                // One tab stop for the table (the selected row, else the newest); arrows move on.
                tabIndex={(selectedShown ? selected?.seq === entry.seq : index === 0) ? 0 : -1}
                onClick={() => setSelected(entry)}
                onKeyDown={(e) => {
                  const row = e.currentTarget;
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    setSelected(entry);
                  } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                    e.preventDefault();
                    const next = e.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling;
                    (next as HTMLElement | null)?.focus();
                  }
                }}
              >
                <td>{clockTime(entry.time)}</td>
                <td>{KIND_LABEL[entry.kind]}</td>
                <td>{entry.channel ?? ''}</td>
                <td>{deliveryOf(entry, kinds)}</td>
                <td>{entry.user ?? ''}</td>
                <td>{entry.transport ?? entry.source ?? ''}</td>
                <td>{refOf(entry)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 && <p class="empty">No messages yet. Post one, or start the replay.</p>}
      </div>
      {selected && (
        <PayloadDetail entry={selected} entries={feed.entries} onClose={() => setSelected(undefined)} />
      )}
    </section>
  );
}

/** The received entry a delivery came from: same eventId, or the latest same payloadKey before it. */
function receivedFor(
  entry: AnyJournalEntry,
  entries: readonly AnyJournalEntry[],
): AnyJournalEntry | undefined {
  if (entry.kind === 'received') return entry;
  if (entry.eventId === undefined && !entry.payloadKey) return undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind !== 'received' || e.seq > entry.seq) continue;
    if (entry.eventId !== undefined ? e.eventId === entry.eventId : e.payloadKey === entry.payloadKey)
      return e;
  }
  return undefined;
}

function PayloadDetail({
  entry,
  entries,
  onClose,
}: {
  entry: AnyJournalEntry;
  entries: readonly AnyJournalEntry[];
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const received = receivedFor(entry, entries);
  const wanted = received?.seq;
  useEffect(() => {
    if (wanted === undefined) return;
    let current = true;
    setText('loading…');
    getJson<{ payload: string }>(`/_sim/messages/${wanted}`).then(
      (body) => current && setText(formatPayload(body.payload)),
      (err: unknown) =>
        current && setText(err instanceof ApiError ? err.message : 'could not load the payload'),
    );
    return () => {
      current = false;
    };
  }, [wanted]);
  return (
    <section class="detail" aria-labelledby="detail-title">
      <div class="bar">
        <h3 id="detail-title">
          #{entry.seq} {entry.kind} {entry.channel ?? ''} {refOf(entry)}
        </h3>
        <button type="button" onClick={onClose} aria-label="Close the payload view">
          Close
        </button>
      </div>
      <p class="entry">
        {clockTime(entry.time)} ·{' '}
        {entry.kind === 'received' ? `from ${entry.source}` : `${entry.user} via ${entry.transport}`}
        {entry.status !== undefined && ` · status ${entry.status}`}
        {received && received.seq !== entry.seq && ` · payload of #${received.seq}`}
      </p>
      <pre id="payload" class="payload" tabIndex={0} aria-label="Payload">
        {wanted === undefined ? 'no payload: this entry has no message of its own' : text}
      </pre>
    </section>
  );
}
