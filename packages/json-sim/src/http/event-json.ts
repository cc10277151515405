import type { EventStore } from '../store/event-store';
import { responseBuffer } from './response-slab';

/**
 * `head`, the held events' JSON separated by commas, then `tail`, as one UTF-8 buffer: byte for
 * byte `head + events.map((e) => JSON.stringify(e)).join(',') + tail`, copied from the bytes the
 * store keeps (each stored with a comma after it, so a run of neighbours is one copy). `head`
 * and `tail` are the response's framing and must be ASCII. Every id must be held by the store.
 */
export function joinEventJson(
  store: Pick<EventStore, 'joinedByteLength' | 'joinedJsonTo'>,
  ids: readonly number[],
  head: string,
  tail: string,
): Buffer {
  const out = responseBuffer(head.length + store.joinedByteLength(ids) + tail.length);
  let written = out.write(head, 0, 'latin1');
  written += store.joinedJsonTo(ids, out, written);
  out.write(tail, written, 'latin1');
  return out;
}
