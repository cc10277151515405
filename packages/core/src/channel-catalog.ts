import { coreError } from './errors';

export type ChannelKind = 'durable' | 'transient';

export interface ChannelDef {
  readonly name: string;
  readonly kind: ChannelKind;
}

/** The channels a simulator knows, each durable (stored, long-polled) or transient (broadcast once). */
export class ChannelCatalog {
  private readonly byName: ReadonlyMap<string, ChannelDef>;

  constructor(defs: readonly ChannelDef[]) {
    const map = new Map<string, ChannelDef>();
    for (const def of defs) {
      if (map.has(def.name)) throw coreError('CHANNELS_INVALID', `channel ${def.name} is listed twice`);
      map.set(def.name, Object.freeze({ name: def.name, kind: def.kind }));
    }
    this.byName = map;
  }

  /** Reads the CHANNELS_FILE shape: `{"durable": ["A", ...], "transient": ["B", ...]}`. */
  static fromJSON(value: unknown, source = 'channels'): ChannelCatalog {
    const fail = (why: string) => coreError('CHANNELS_INVALID', `${source}: ${why}`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw fail('expected an object {"durable": [...], "transient": [...]}');
    }
    const record = value as Record<string, unknown>;
    const defs: ChannelDef[] = [];
    for (const kind of ['durable', 'transient'] as const) {
      const names = record[kind] ?? [];
      if (!Array.isArray(names)) throw fail(`"${kind}" must be an array of channel names`);
      for (const name of names) {
        if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(name)) {
          throw fail(`"${kind}" holds an invalid channel name ${JSON.stringify(name)}`);
        }
        defs.push({ name, kind });
      }
    }
    const unknown = Object.keys(record).filter((k) => k !== 'durable' && k !== 'transient');
    if (unknown.length > 0) throw fail(`unknown field(s) ${unknown.join(', ')}`);
    if (defs.length === 0) throw fail('no channels defined');
    try {
      return new ChannelCatalog(defs);
    } catch (err) {
      throw fail((err as Error).message);
    }
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  kindOf(name: string): ChannelKind | undefined {
    return this.byName.get(name)?.kind;
  }

  list(): ChannelDef[] {
    return [...this.byName.values()];
  }

  names(kind?: ChannelKind): string[] {
    return this.list()
      .filter((def) => kind === undefined || def.kind === kind)
      .map((def) => def.name);
  }

  toJSON(): { durable: string[]; transient: string[] } {
    return { durable: this.names('durable'), transient: this.names('transient') };
  }
}
