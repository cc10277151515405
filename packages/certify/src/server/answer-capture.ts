import type { ServerResponse } from 'node:http';

/** A long-poll answer larger than this is not read for its eventIds (the count is then unknown). */
const CAPTURE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Keeps a copy of what a response writes, up to a cap, so the recorder can say which eventIds a
 * page carried. Only the long-poll routes are captured: nothing else needs its body read.
 */
export function captureBody(res: ServerResponse): () => Buffer | undefined {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function' || overflow) return;
    const buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > CAPTURE_MAX_BYTES) {
      overflow = true;
      chunks.length = 0;
      return;
    }
    chunks.push(buf);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as ServerResponse['end'];
  return () => (overflow ? undefined : Buffer.concat(chunks));
}

/** What a 200 of GET /customerapi/events carried, or undefined when it cannot be read. */
export function readEventsPage(
  body: Buffer | undefined,
): { messages: number; eventIds: number[]; hasMore?: boolean } | undefined {
  if (body === undefined) return undefined;
  try {
    const data = (JSON.parse(body.toString('utf8')) as { data?: { events?: unknown; hasMore?: unknown } })
      .data;
    if (!data || !Array.isArray(data.events)) return undefined;
    const eventIds = data.events
      .map((e: unknown) => (e as { eventId?: unknown } | null)?.eventId)
      .filter((id): id is number => typeof id === 'number');
    return {
      messages: data.events.length,
      eventIds,
      ...(typeof data.hasMore === 'boolean' && { hasMore: data.hasMore }),
    };
  } catch {
    // A body that is not the page shape (a fault rule's own body): nothing to say about it.
    return undefined;
  }
}
