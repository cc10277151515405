import type { RedactSpecs } from './redact-specs';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Whether a dotted --redact path names the last entry of `chain` (element names from the root,
 * then the attribute or element itself). `payload.starters.trainer` is read the way the legacy
 * documents mirror the JSON payloads (recordings/README.md): the root element stands for
 * `payload`, a segment for an element of that name in any case, optionally followed by one list
 * item element. Any other path names the elements exactly from the root: `StartList.Starters.Starter.trainer`.
 */
export function xmlPathMatches(segments: readonly string[], chain: readonly string[]): boolean {
  if (segments[0] === 'payload') return chain.length >= 2 && fromPayload(segments, 1, chain, 1);
  return segments.length === chain.length && segments.every((segment, i) => segment === chain[i]);
}

function fromPayload(segments: readonly string[], s: number, chain: readonly string[], c: number): boolean {
  if (c >= chain.length || !same(segments[s]!, chain[c]!)) return false;
  if (s === segments.length - 1) return c === chain.length - 1;
  return fromPayload(segments, s + 1, chain, c + 1) || fromPayload(segments, s + 1, chain, c + 2);
}

/** The --redact entry that drops this attribute or element, if any. */
export function xmlRedactSpec(
  redact: RedactSpecs,
  chain: readonly string[],
  isRoot: boolean,
): string | undefined {
  // The root is the document: dropping it would leave no message, so only its content can go.
  if (isRoot) return undefined;
  const name = chain[chain.length - 1]!;
  const bare = redact.names.get(name);
  if (bare !== undefined) return bare;
  for (const [spec, segments] of redact.paths) {
    if (xmlPathMatches(segments, chain)) return spec;
  }
  return undefined;
}
