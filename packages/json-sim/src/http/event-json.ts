import type { EventStore } from '../store/event-store';
import { responseBuffer } from './response-slab';

/**
 * `head`, the held events' JSON separated by commas, then `tail`, as one UTF-8 buffer: byte for
 * byte `head + events.map((e) => JSON.stringify(e)).join(',') + tail`, written by the store from
 * each event's stored payload and its envelope columns. `head` and `tail` are the response's
 * framing and must be ASCII. Every id must be held by the store.
 */
export function joinEventJson(
  store: Pick<EventStore, 'joinedByteLength' | 'joinedJsonTo'>,
  ids: readonly number[],
  head: string,
  tail: string,
): Buffer {
  const out = responseBuffer(head.length + store.joinedByteLength(ids) + tail.length);
  let written = out.write(head, 0, 'latin1');
  // The store may use the room after its events as scratch: the tail is written after it.
  written += store.joinedJsonTo(ids, out, written);
  out.write(tail, written, 'latin1');
  return out;
}
