import type { ChannelKind, Logger, UserTable } from '@racedata/core';
import type { Response } from 'express';

/** Who could receive a post right now; the simulator's own, so the answer's body stays the vendor's. */
export interface PostPresence {
  /** Authenticated /event-stream sessions by user key. */
  readonly sessionsByUser: ReadonlyMap<string, number>;
  /** Users whose held /events or /filtered-events poll would be answered by the channel. */
  usersWaitingFor(channel: string): ReadonlySet<string>;
}

export const SUBSCRIBERS_HEADER = 'x-racedata-subscribers';
export const CONNECTED_HEADER = 'x-racedata-connected-subscribers';
export const NOTICE_HEADER = 'x-racedata-notice';

/** A header names this many users at most; a users file may hold thousands. */
const MAX_NAMED = 20;

function userList(keys: readonly string[]): string {
  // A header value is Latin-1 without controls: a key outside printable ASCII is percent-encoded.
  const shown = keys
    .slice(0, MAX_NAMED)
    .map((key) => (/^[\x21-\x2b\x2d-\x7e]+$/.test(key) ? key : encodeURIComponent(key)));
  return keys.length > MAX_NAMED ? `${shown.join(', ')}, +${keys.length - MAX_NAMED} more` : shown.join(', ');
}

/**
 * Says in the answer's headers who a post on `channel` can reach: the users whose subscription
 * includes it, those of them connected now (an open /event-stream session; for a durable channel
 * also a held long poll that the message answers), and a notice when none is, since a post on a
 * channel the default testuser does not take otherwise reaches nobody without a word. Taken
 * before the message is published: publishing answers the held polls it counts.
 */
export class PostAudience {
  private readonly warned = new Set<string>();

  constructor(
    private readonly users: UserTable,
    private readonly presence: PostPresence,
    private readonly logger: Logger,
  ) {}

  /** Sets the headers for a post on the channel; logs the first lonely post per channel at warn. */
  tell(res: Response, channel: string, kind: ChannelKind): void {
    const subscribers = this.users.users.filter((u) => u.channels.has(channel)).map((u) => u.key);
    const waiting = kind === 'durable' ? this.presence.usersWaitingFor(channel) : new Set<string>();
    const connected = subscribers.filter(
      (key) => (this.presence.sessionsByUser.get(key) ?? 0) > 0 || waiting.has(key),
    );
    res.setHeader(SUBSCRIBERS_HEADER, userList(subscribers));
    res.setHeader(CONNECTED_HEADER, userList(connected));
    if (connected.length > 0) return;
    const notice = noticeFor(channel, kind, subscribers);
    res.setHeader(NOTICE_HEADER, notice);
    if (this.warned.has(channel)) return;
    this.warned.add(channel);
    this.logger.warn({ channel, subscribers: subscribers.slice(0, MAX_NAMED) }, notice);
  }
}

function noticeFor(channel: string, kind: ChannelKind, subscribers: readonly string[]): string {
  const name = JSON.stringify(channel);
  if (subscribers.length === 0) {
    return `no user subscribes to ${name}: the message reaches nobody (a users file gives a user the channel)`;
  }
  const who = `no user subscribed to ${name} (${userList(subscribers)}) is connected now`;
  return kind === 'durable'
    ? `${who} (no open /event-stream session, no held long poll for it): the event is stored for their next read`
    : `${who} (no open /event-stream session): the message reached nobody`;
}
