import { TransientHub, type Logger, type User } from '@racedata/core';

const user = (key: string, channels: string[]): User => ({
  name: key,
  key,
  secret: 's',
  token: `${key}-token`,
  channels: new Set(channels),
});

function fakeLogger(): Logger & { warn: jest.Mock } {
  const logger = {
    debug: jest.fn(),
    info: jest.fn(),
    warn: jest.fn(),
    error: jest.fn(),
    child: jest.fn(),
  };
  logger.child.mockReturnValue(logger);
  return logger;
}

const trot = user('trot', ['TimeToStartTrot', 'SplitTimesTrot']);
const gallop = user('gallop', ['TimeToStartGallop']);

describe('TransientHub', () => {
  test('delivers only to subscribers whose user has the channel and counts them', () => {
    const hub = new TransientHub<string>();
    const toTrot = jest.fn();
    const toGallop = jest.fn();
    hub.subscribe(trot, toTrot);
    hub.subscribe(gallop, toGallop);

    expect(hub.publish('TimeToStartTrot', 'm1')).toBe(1);
    expect(toTrot).toHaveBeenCalledWith('m1', 'TimeToStartTrot');
    expect(toGallop).not.toHaveBeenCalled();

    expect(hub.publish('TimeToStartGallop', 'm2')).toBe(1);
    expect(toGallop).toHaveBeenCalledWith('m2', 'TimeToStartGallop');
    expect(toTrot).toHaveBeenCalledTimes(1);
  });

  test('a channel nobody subscribes to reaches nobody and is not kept for later subscribers', () => {
    const hub = new TransientHub<string>();
    const early = jest.fn();
    hub.subscribe(trot, early);
    expect(hub.publish('Last500MetersGallop', 'x')).toBe(0);
    expect(early).not.toHaveBeenCalled();

    expect(hub.publish('TimeToStartGallop', 'lost')).toBe(0);
    const late = jest.fn();
    hub.subscribe(gallop, late);
    expect(late).not.toHaveBeenCalled();
  });

  test('publishing with no subscribers returns 0', () => {
    expect(new TransientHub<string>().publish('TimeToStartTrot', 'x')).toBe(0);
  });

  test('null (legacy "id") goes to every subscriber', () => {
    const hub = new TransientHub<string>();
    const a = jest.fn();
    const b = jest.fn();
    hub.subscribe(trot, a);
    hub.subscribe(user('none', []), b);
    expect(hub.publish(null, 'all')).toBe(2);
    expect(a).toHaveBeenCalledWith('all', null);
    expect(b).toHaveBeenCalledWith('all', null);
  });

  test('every connection of the same user receives its own copy, the same message object', () => {
    const hub = new TransientHub<{ n: number }>();
    const first = jest.fn();
    const second = jest.fn();
    hub.subscribe(trot, first);
    hub.subscribe(trot, second);
    const message = { n: 1 };
    expect(hub.publish('SplitTimesTrot', message)).toBe(2);
    expect(first.mock.calls[0][0]).toBe(message);
    expect(second.mock.calls[0][0]).toBe(message);
  });

  test('size counts subscriptions; unsubscribe stops delivery and is idempotent', () => {
    const hub = new TransientHub<string>();
    const deliver = jest.fn();
    const other = jest.fn();
    const off = hub.subscribe(trot, deliver);
    hub.subscribe(trot, other);
    expect(hub.size).toBe(2);
    off();
    expect(hub.size).toBe(1);
    off();
    expect(hub.size).toBe(1);
    expect(hub.publish('TimeToStartTrot', 'after')).toBe(1);
    expect(deliver).not.toHaveBeenCalled();
    expect(other).toHaveBeenCalledTimes(1);
  });

  test('the same callback subscribed twice is two subscriptions, each removable on its own', () => {
    const hub = new TransientHub<string>();
    const deliver = jest.fn();
    const off1 = hub.subscribe(trot, deliver);
    hub.subscribe(trot, deliver);
    off1();
    expect(hub.publish('TimeToStartTrot', 'x')).toBe(1);
    expect(deliver).toHaveBeenCalledTimes(1);
  });

  test('a throwing subscriber is skipped, not counted, logged, and does not stop the others', () => {
    const logger = fakeLogger();
    const hub = new TransientHub<string>(logger);
    const before = jest.fn();
    const after = jest.fn();
    const failure = new Error('socket gone');
    hub.subscribe(trot, before);
    hub.subscribe(gallop, () => {
      throw failure;
    });
    hub.subscribe(trot, after);
    hub.subscribe(gallop, after);

    expect(hub.publish(null, 'x')).toBe(3);
    expect(before).toHaveBeenCalledTimes(1);
    expect(after).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: failure, user: 'gallop' }),
      expect.any(String),
    );
  });

  test('without a logger a throwing subscriber is still contained', () => {
    const hub = new TransientHub<string>();
    hub.subscribe(trot, () => {
      throw new Error('boom');
    });
    expect(() => hub.publish('TimeToStartTrot', 'x')).not.toThrow();
    expect(hub.publish('TimeToStartTrot', 'x')).toBe(0);
  });

  test('a subscriber may unsubscribe itself while being delivered to', () => {
    const hub = new TransientHub<string>();
    const seen: string[] = [];
    const off = hub.subscribe(trot, (m) => {
      seen.push(m);
      off();
    });
    const other = jest.fn();
    hub.subscribe(trot, other);
    expect(hub.publish('TimeToStartTrot', 'a')).toBe(2);
    expect(hub.publish('TimeToStartTrot', 'b')).toBe(1);
    expect(seen).toEqual(['a']);
    expect(other).toHaveBeenCalledTimes(2);
  });

  test('onDelivered is told once per message of the users that took it, in order', () => {
    const told: Array<[string[], string | null, string]> = [];
    const hub = new TransientHub<string>(
      undefined,
      (users, channel, message) => told.push([users.map((u) => u.key), channel, message]),
      (u) => u.key === 'dropped',
    );
    hub.subscribe(gallop, jest.fn());
    hub.subscribe(trot, () => false);
    hub.subscribe(user('dropped', ['TimeToStartGallop']), jest.fn());
    hub.subscribe(trot, () => {
      throw new Error('gone');
    });
    hub.subscribe(user('other', []), jest.fn());
    hub.subscribe(trot, jest.fn());
    expect(hub.publish(null, 'all')).toBe(3);
    expect(hub.publish('TimeToStartGallop', 'g')).toBe(1);
    expect(hub.publish('Last500MetersGallop', 'none')).toBe(0);
    expect(told).toEqual([
      [['gallop', 'other', 'trot'], null, 'all'],
      [['gallop'], 'TimeToStartGallop', 'g'],
    ]);
  });
});
