import type { User } from './users';

/**
 * The one place that decides whether a user may see a channel. Every transport (long poll,
 * filtered events, WebSocket, STOMP, legacy queues) asks this, so none can leak a channel.
 * `null` is the legacy "id" address: every user.
 */
export function subscribes(user: User, channel: string | null): boolean {
  return channel === null || user.channels.has(channel);
}

export function audience(users: readonly User[], channel: string | null): User[] {
  return users.filter((user) => subscribes(user, channel));
}
