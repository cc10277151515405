import { decodedLayers } from './decoded-layers';
import type { SecretNeedles } from './secret-forms';

/** Where a secret was found in a text: which reading, which form, and where in that reading. */
export interface FormMatch {
  /** Index of the secret in the list searched (never the secret itself). */
  readonly secret: number;
  /** `raw`, `base64+1`, `raw (unescaped all)`, `url (as written, case changed)`... */
  readonly form: string;
  /** Character offset in the reading where it was found. */
  readonly index: number;
  /** True when found in the text as written (so `index` is an offset into it). */
  readonly asWritten: boolean;
}

interface Owner {
  readonly secret: number;
  readonly form: string;
}

/** The needles of several secrets as one alternation each (exact, lower-cased): one scan a reading. */
export interface SecretMatcher {
  readonly exact: RegExp | undefined;
  readonly folded: RegExp | undefined;
  readonly owners: ReadonlyMap<string, Owner>;
  readonly foldedOwners: ReadonlyMap<string, Owner>;
  readonly count: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function alternation(owners: Map<string, Owner>): RegExp | undefined {
  if (owners.size === 0) return undefined;
  // Longest first, so the match names the most specific form where forms overlap.
  const texts = [...owners.keys()].sort((a, b) => b.length - a.length);
  return new RegExp(texts.map(escapeRegExp).join('|'), 'g');
}

/** Compiles the needles of `secrets` (index order is the finding's `secret`). */
export function compileMatcher(secrets: ReadonlyArray<SecretNeedles>): SecretMatcher {
  const owners = new Map<string, Owner>();
  const foldedOwners = new Map<string, Owner>();
  secrets.forEach((needles, secret) => {
    for (const { form, text } of needles.exact) if (!owners.has(text)) owners.set(text, { secret, form });
    for (const { form, text } of needles.folded)
      if (!foldedOwners.has(text)) foldedOwners.set(text, { secret, form });
  });
  return {
    exact: alternation(owners),
    folded: alternation(foldedOwners),
    owners,
    foldedOwners,
    count: secrets.length,
  };
}

/**
 * Every secret found in `text` in any of its forms, one match per secret (readings in order,
 * exact before case-changed), each reading scanned once for all needles. `first` stops at the
 * first secret found, for the write-time guard.
 */
export function matchSecrets(
  text: string,
  secrets: ReadonlyArray<SecretNeedles> | SecretMatcher,
  first = false,
): FormMatch[] {
  const matcher = Array.isArray(secrets)
    ? compileMatcher(secrets as ReadonlyArray<SecretNeedles>)
    : (secrets as SecretMatcher);
  const found = new Map<number, FormMatch>();
  const done = () => found.size === matcher.count || (first && found.size > 0);
  for (const [i, { layer, text: reading }] of decodedLayers(text).entries()) {
    const asWritten = i === 0;
    scan(matcher.exact, matcher.owners, reading, (owner, index) => {
      const form = asWritten ? owner.form : `${owner.form} (${layer})`;
      if (!found.has(owner.secret)) found.set(owner.secret, { secret: owner.secret, form, index, asWritten });
      return done();
    });
    if (done()) break;
    if (matcher.folded === undefined) continue;
    scan(matcher.folded, matcher.foldedOwners, reading.toLowerCase(), (owner, index) => {
      const form = `${owner.form} (${layer}, case changed)`;
      if (!found.has(owner.secret))
        found.set(owner.secret, { secret: owner.secret, form, index, asWritten: false });
      return done();
    });
    if (done()) break;
  }
  return [...found.values()].sort((a, b) => a.secret - b.secret);
}

function scan(
  pattern: RegExp | undefined,
  owners: ReadonlyMap<string, Owner>,
  text: string,
  onMatch: (owner: Owner, index: number) => boolean,
): void {
  if (pattern === undefined) return;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    // The alternation names the longest needle here; a shorter one of another secret (the key's
    // base64 at the start of key:secret's) may start at the same place.
    for (const [needle, owner] of owners) {
      if (text.startsWith(needle, m.index) && onMatch(owner, m.index)) return;
    }
    // Overlapping forms of other secrets may start inside this one.
    pattern.lastIndex = m.index + 1;
  }
}
