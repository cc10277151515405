import type { ChannelCatalog } from './channel-catalog';
import { coreError } from './errors';

export interface User {
  readonly name: string;
  readonly key: string;
  readonly secret: string;
  /** The fixed token that never changes; valid in every token mode. */
  readonly token: string;
  readonly channels: ReadonlySet<string>;
}

/** The USERS_FILE shape; `channels` is a list of catalog names or "*" for every channel. */
export interface UserSpec {
  name: string;
  key: string;
  secret: string;
  token: string;
  channels: string[] | '*';
}

export class UserTable {
  private readonly byKeyMap: ReadonlyMap<string, User>;
  private readonly byTokenMap: ReadonlyMap<string, User>;

  constructor(readonly users: readonly User[]) {
    const byKey = new Map<string, User>();
    const byToken = new Map<string, User>();
    for (const user of users) {
      if (byKey.has(user.key)) throw coreError('USERS_INVALID', `key ${user.key} is used by two users`);
      if (byToken.has(user.token)) throw coreError('USERS_INVALID', `token of ${user.key} is used twice`);
      byKey.set(user.key, user);
      byToken.set(user.token, user);
    }
    this.byKeyMap = byKey;
    this.byTokenMap = byToken;
  }

  /** Validates a USERS_FILE document (or a built-in table) against the catalog. */
  static fromJSON(value: unknown, catalog: ChannelCatalog, source = 'users'): UserTable {
    const fail = (why: string) => coreError('USERS_INVALID', `${source}: ${why}`);
    const list = Array.isArray(value) ? value : (value as { users?: unknown } | null)?.users;
    if (!Array.isArray(list) || list.length === 0) {
      throw fail('expected {"users": [{"name", "key", "secret", "token", "channels"}, ...]}');
    }
    const users = list.map((entry: unknown, index: number): User => {
      const where = `users[${index}]`;
      if (typeof entry !== 'object' || entry === null) throw fail(`${where} must be an object`);
      const spec = entry as Record<string, unknown>;
      for (const field of ['key', 'secret', 'token'] as const) {
        const v = spec[field];
        if (typeof v !== 'string' || v.trim() === '')
          throw fail(`${where}.${field} must be a non-empty string`);
      }
      const name = spec.name === undefined ? String(spec.key) : spec.name;
      if (typeof name !== 'string') throw fail(`${where}.name must be a string`);
      const channels = spec.channels;
      let set: Set<string>;
      if (channels === '*') {
        set = new Set(catalog.names());
      } else if (Array.isArray(channels) && channels.every((c) => typeof c === 'string')) {
        const unknown = channels.filter((c) => !catalog.has(c));
        if (unknown.length > 0) throw fail(`${where}.channels has unknown channel(s) ${unknown.join(', ')}`);
        set = new Set(channels);
      } else {
        throw fail(`${where}.channels must be "*" or an array of channel names`);
      }
      return Object.freeze({
        name,
        key: spec.key as string,
        secret: spec.secret as string,
        token: spec.token as string,
        channels: set,
      });
    });
    try {
      return new UserTable(users);
    } catch (err) {
      throw fail((err as Error).message);
    }
  }

  byToken(token: string): User | undefined {
    return this.byTokenMap.get(token);
  }

  byKey(key: string): User | undefined {
    return this.byKeyMap.get(key);
  }

  /** The user owning this key and secret, or undefined for a wrong pair. */
  authenticate(key: string, secret: string): User | undefined {
    const user = this.byKeyMap.get(key);
    return user !== undefined && user.secret === secret ? user : undefined;
  }
}
