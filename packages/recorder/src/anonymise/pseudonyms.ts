import { createHmac } from 'node:crypto';
import type { NameCategory } from './name-fields';
import { HORSE_POOL, PERSON_POOL, type NamePool } from './name-pools';

const POOLS: Readonly<Record<NameCategory, NamePool>> = { horse: HORSE_POOL, person: PERSON_POOL };

/** Tries before a collision falls back to a numbered name; with pools of ~30,000 it never should. */
const MAX_ATTEMPTS = 64;

/** Default bound on what the book remembers, in (estimated) bytes; a race day needs well under 1 MB. */
export const DEFAULT_BOOK_BUDGET_BYTES = 32 * 1024 * 1024;

// A country suffix as feeds print it after a horse's name, `Ready Cash (FR)`: not a name, and kept
// so the same horse with and without it gets the same pseudonym.
const COUNTRY_SUFFIX = /\s*\([A-Z]{2,3}\)$/;

/** How a name is compared: Unicode-normalised, spaces collapsed, case folded. */
export function nameKey(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function isUpperCase(text: string): boolean {
  return text !== text.toLowerCase() && text === text.toUpperCase();
}

/**
 * Pseudonyms chosen by a salted HMAC from fixed pools: the same salt and name give the same
 * pseudonym in every run, for both simulators' forms of a message. Two names whose hashes meet
 * are told apart by hashing again, in the order they are first seen, so within one recording two
 * originals never share a pseudonym (while the book is under its byte budget).
 */
export class PseudonymBook {
  private readonly byKey = new Map<string, string>();
  private readonly owners = new Map<string, string>();
  private bytes = 0;

  constructor(
    private readonly salt: string,
    private readonly budgetBytes = DEFAULT_BOOK_BUDGET_BYTES,
  ) {}

  /** The pseudonym for `original`, in its case style and with its country suffix kept. */
  pseudonym(category: NameCategory, original: string): string {
    const suffix = COUNTRY_SUFFIX.exec(original)?.[0] ?? '';
    const base = suffix === '' ? original : original.slice(0, -suffix.length);
    const key = `${category}\u0000${nameKey(base)}`;
    let chosen = this.byKey.get(key);
    if (chosen === undefined) {
      chosen = this.choose(category, key);
      this.remember(key, category, chosen);
    }
    return (isUpperCase(base) ? chosen.toUpperCase() : chosen) + suffix;
  }

  private choose(category: NameCategory, key: string): string {
    const pool = POOLS[category];
    const original = key.slice(key.indexOf('\u0000') + 1);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const candidate = pool.at(this.index(key, attempt, pool.size));
      const folded = nameKey(candidate);
      const owner = this.owners.get(`${category}\u0000${folded}`);
      // Never the original itself: a real name that happens to be in a pool must still change.
      if (folded !== original && (owner === undefined || owner === key)) return candidate;
    }
    return `${pool.at(this.index(key, 0, pool.size))} ${this.index(key, MAX_ATTEMPTS, 9000) + 1000}`;
  }

  private index(key: string, attempt: number, size: number): number {
    const digest = createHmac('sha256', this.salt).update(`${key}\u0000${attempt}`).digest();
    return digest.readUIntBE(0, 6) % size;
  }

  private remember(key: string, category: NameCategory, chosen: string): void {
    const cost = 2 * (key.length + chosen.length) * 2 + 160;
    // Past the budget names are still hashed the same way; only collision checks stop growing.
    if (this.bytes + cost > this.budgetBytes) return;
    this.bytes += cost;
    this.byKey.set(key, chosen);
    this.owners.set(`${category}\u0000${nameKey(chosen)}`, key);
  }
}
