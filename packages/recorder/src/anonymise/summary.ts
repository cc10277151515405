/** What an anonymiser did, by field name (replaced) and by --redact entry (redacted). */
export interface AnonymiseSummary {
  readonly replaced: Record<string, number>;
  readonly redacted: Record<string, number>;
  readonly messages: number;
}

export class SummaryCounter {
  private readonly replaced = new Map<string, number>();
  private readonly redacted = new Map<string, number>();
  private messages = 0;

  message(): void {
    this.messages += 1;
  }

  replacedIn(field: string): void {
    bump(this.replaced, field);
  }

  redactedBy(spec: string): void {
    bump(this.redacted, spec);
  }

  /** Adds another counter's rows: a line is tallied apart and merged only once it went through whole. */
  merge(other: SummaryCounter): void {
    for (const [key, n] of other.replaced) bump(this.replaced, key, n);
    for (const [key, n] of other.redacted) bump(this.redacted, key, n);
    this.messages += other.messages;
  }

  snapshot(): AnonymiseSummary {
    return {
      replaced: Object.fromEntries(this.replaced),
      redacted: Object.fromEntries(this.redacted),
      messages: this.messages,
    };
  }
}

// Field names come from the feed; past this many distinct ones the rest share one row, so a
// feed with generated field names cannot grow the summary without bound.
const MAX_ROWS = 1_000;
const OTHER_ROW = '(other fields)';

function bump(counts: Map<string, number>, key: string, n = 1): void {
  const row = counts.has(key) || counts.size < MAX_ROWS ? key : OTHER_ROW;
  counts.set(row, (counts.get(row) ?? 0) + n);
}
