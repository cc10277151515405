import type { ReceiptLedger, PostLog } from '../harness/ledger';
import { legacyXml, seqOfKey, seqOfXml } from '../harness/payloads';
import { DISCONNECTED, openSet, type ClientKind, type ClientSet, type SetSpec } from './sets';

/** The tag of a legacy message the soak and the abuse run post: its kind and channel are in its bytes. */
export const legacyTag = (kind: 'Durable' | 'NonDurable', channel: string) => `${kind} ${channel}`;

/** The receipts in one delivery: [seq, whether its content is the post of that seq, its order]. */
type Receipt = [seq: number, matches: boolean, order?: number];
type Reader = (text: string, posts: PostLog) => Receipt[] | undefined;

/** A JSON document, or undefined for a text that is not one. */
export function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type Message = { type?: string; eventId?: unknown; channel?: unknown; payload?: { seq?: unknown } };
const byChannel = (posts: PostLog, m: Message | undefined): [number, boolean] => {
  const seq = Number(m?.payload?.seq);
  return [seq, posts.target[seq] === m?.channel];
};

/** How each kind's deliveries are read (undefined: not a delivery of that kind at all). */
const READERS: Partial<Record<ClientKind, Reader>> = {
  // A listen answers a JSON string, the posted XML.
  'legacy-listens': (text, posts) => {
    const xml = parsed(text);
    if (typeof xml !== 'string') return undefined;
    const seq = seqOfXml(xml);
    return [[seq, xml === legacyXml(seq, legacyTag('Durable', posts.target[seq] as string))]];
  },
  // A page of stored events, in eventId order.
  'json-polls': (text, posts) => {
    const events = (parsed(text) as { data?: { events?: Message[] } } | undefined)?.data?.events;
    return events?.map((e): Receipt => [...byChannel(posts, e), Number(e.eventId)]);
  },
  // Data messages carry the posted channel and payload.
  'event-stream': (text, posts) => {
    const m = parsed(text) as { type?: string; data?: Message } | undefined;
    return m && (m.type === 'Data' ? [byChannel(posts, m.data)] : []);
  },
  // A MESSAGE frame's body is JSON: channel, payloadKey, payload, timestamp.
  stomp: (text, posts) => {
    const frame = text.slice(0, text.indexOf('\0'));
    const body = parsed(frame.slice(frame.indexOf('\n\n') + 2)) as Record<string, unknown> | undefined;
    const seq = seqOfKey(body?.payloadKey);
    const target = posts.target[seq] as string;
    const tag = legacyTag('NonDurable', target);
    return body && [[seq, body.channel === target && body.payload === legacyXml(seq, tag)]];
  },
};

/**
 * Clients of `spec` (in this process) whose every delivery is checked into `ledger`, client i
 * counting for receiver i mod the ledger's receivers (a legacy queue is its user's).
 */
export async function checkedClients(spec: SetSpec, ledger: ReceiptLedger): Promise<ClientSet> {
  const set = openSet(spec);
  const read = READERS[spec.kind] as Reader;
  const noteOdd = (why: string) => {
    ledger.odd.count++;
    ledger.odd.last = `${spec.kind}: ${why.slice(0, 200)}`;
  };
  await set.connect(
    (client, _n, at, body) => {
      const text = body.toString('utf8');
      const receipts = read(text, ledger.posts);
      if (!receipts) return noteOdd(text);
      for (const [seq, matches, order] of receipts)
        ledger.record(client % ledger.receivers, seq, at, matches, order);
    },
    (why) => (why === DISCONNECTED ? ledger.disconnects++ : noteOdd(why)),
  );
  return set;
}
