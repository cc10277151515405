import type { ServerResponse } from 'node:http';
import type { AnswerChange } from '../types';

type Head = [status: number, ...rest: unknown[]];

/**
 * Lets the simulator answer as it always does, then sends a 200 JSON body that a change matches
 * as that change makes it (with its Content-Length set again). Only an answer the simulator sends
 * whole, with writeHead and one end(), is changed; anything else passes as it was written.
 */
export function rewriteAnswer(
  res: ServerResponse,
  changes: readonly AnswerChange[],
  now: () => number,
): void {
  if (changes.length === 0) return;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let head: Head | undefined;
  const flushHead = () => {
    if (head) writeHead(...head);
    head = undefined;
  };
  res.writeHead = ((...args: unknown[]) => {
    head = args as Head;
    return res;
  }) as ServerResponse['writeHead'];
  res.write = ((...args: unknown[]) => {
    flushHead();
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    const [chunk] = args;
    const body = Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk) : undefined;
    const changed = head && head[0] === 200 && body ? changedBody(body, changes, now) : undefined;
    if (changed && head) {
      const headers = { ...(head.find((part) => typeof part === 'object') as Record<string, unknown>) };
      for (const name of Object.keys(headers))
        if (name.toLowerCase() === 'content-length') delete headers[name];
      headers['Content-Length'] = changed.length;
      writeHead(200, headers);
      head = undefined;
      const callback = args.find((part) => typeof part === 'function');
      return callback ? end(changed, callback) : end(changed);
    }
    flushHead();
    return end(...args);
  }) as ServerResponse['end'];
}

function changedBody(body: Buffer, changes: readonly AnswerChange[], now: () => number): Buffer | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    // Not JSON (a fault rule's text): nothing a change is about.
    return undefined;
  }
  for (const change of changes) {
    if (!change.test(parsed)) continue;
    const out = Buffer.from(JSON.stringify(change.change(parsed)), 'utf8');
    change.changed?.(now());
    return out;
  }
  return undefined;
}
