import type { EventStore } from '../store/event-store';
import type { StoredEvent } from '../store/types';

const COMMA = 0x2c;

/**
 * `head`, the events' JSON separated by commas, then `tail`, as one UTF-8 buffer: byte for byte
 * `head + events.map((e) => JSON.stringify(e)).join(',') + tail`, copied from the bytes the store
 * cached at append (events the store no longer holds are serialised). `head` and `tail` are the
 * response's framing and must be ASCII.
 */
export function joinEventJson(
  store: Pick<EventStore, 'jsonByteLength' | 'copyJsonTo'>,
  events: readonly StoredEvent[],
  head: string,
  tail: string,
): Buffer {
  const lengths = new Array<number>(events.length);
  let own: Buffer[] | undefined;
  let size = head.length + Math.max(0, events.length - 1) + tail.length;
  for (let i = 0; i < events.length; i++) {
    const length = store.jsonByteLength(events[i] as StoredEvent);
    lengths[i] = length;
    if (length >= 0) {
      size += length;
    } else {
      const text = Buffer.from(JSON.stringify(events[i]), 'utf8');
      (own ??= [])[i] = text;
      size += text.length;
    }
  }
  const out = Buffer.allocUnsafe(size);
  let written = out.write(head, 0, 'latin1');
  for (let i = 0; i < events.length; i++) {
    if (i > 0) out[written++] = COMMA;
    const event = events[i] as StoredEvent;
    written +=
      (lengths[i] as number) >= 0
        ? store.copyJsonTo(event, out, written)
        : (own?.[i] as Buffer).copy(out, written);
  }
  out.write(tail, written, 'latin1');
  return out;
}
