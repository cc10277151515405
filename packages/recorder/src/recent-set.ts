/**
 * A set that keeps only the newest `max` members, so what the recorder remembers to spot
 * duplicates costs a bounded amount of memory however long it runs.
 */
export class RecentSet {
  private readonly members = new Set<string>();

  constructor(private readonly max: number) {}

  has(member: string): boolean {
    return this.members.has(member);
  }

  add(member: string): void {
    this.members.delete(member);
    this.members.add(member);
    if (this.members.size > this.max) {
      const oldest = this.members.values().next().value as string;
      this.members.delete(oldest);
    }
  }
}
