/** What the LegacyQueues tests share: users and queue helpers. */
import { ManualClock, type User } from '@racedata/core';
import { LegacyQueues, type Lease } from '../../src/queue/legacy-queues';

export const user = (key: string, channels: string[] = ['RaceDay']): User => ({
  name: key,
  key,
  secret: 's',
  token: `${key}-token`,
  channels: new Set(channels),
});

export const alice = user('alice');
export const bob = user('bob');

export const HOUR = 3_600_000;

/**
 * A fresh clock and queues (24 h retention) before each test of the calling describe block, and
 * the calls the tests make on them.
 */
export function freshQueues() {
  const current = { clock: new ManualClock(), queues: undefined as unknown as LegacyQueues };
  beforeEach(() => {
    current.clock = new ManualClock();
    current.queues = new LegacyQueues({ clock: current.clock, retentionMs: 24 * HOUR, maxPerUser: 10_000 });
  });
  const put = (xml: string, to: readonly User[] = [alice], channel: string | null = 'RaceDay') =>
    current.queues.enqueue(to, { channel, payloadKey: `key-${xml}`, xml });
  const take = (u: User = alice, timeoutMs = 60_000, signal?: AbortSignal) =>
    current.queues.take(u, signal ? { timeoutMs, signal } : { timeoutMs });
  const takeNow = async (u: User = alice): Promise<Lease> => {
    const lease = await take(u, 0);
    if (!lease) throw new Error('expected a queued message');
    return lease;
  };
  return { current, put, take, takeNow };
}
