import { isSimError, ManualClock, silentLogger, TransientHub, UserTable, type User } from '@racedata/core';
import { legacyChannelCatalog } from '../src/description';
import { LegacyBus, type TransientXmlMessage } from '../src/legacy-bus';
import { LegacyQueues, xmlOf } from '../src/queue/legacy-queues';

const catalog = legacyChannelCatalog();
const users = UserTable.fromJSON(
  [
    { name: 'all', key: 'all', secret: 's', token: 'tall', channels: '*' },
    { name: 'countdown', key: 'cd', secret: 's', token: 'tcd', channels: ['TimeToStart', 'RaceDay'] },
  ],
  catalog,
);
const all = users.byKey('all') as User;
const countdown = users.byKey('cd') as User;

function setup(retentionMs = 1000, maxPerUser = 3) {
  const clock = new ManualClock();
  const queues = new LegacyQueues({ clock, retentionMs, maxPerUser });
  const hub = new TransientHub<TransientXmlMessage>();
  const bus = new LegacyBus({ users, catalog, queues, hub, clock, logger: silentLogger() });
  return { clock, queues, hub, bus };
}

async function drain(queues: LegacyQueues, user: User): Promise<string[]> {
  const out: string[] = [];
  while (queues.depth(user) > 0) {
    const lease = await queues.take(user, { timeoutMs: 1 });
    if (!lease) break;
    out.push(xmlOf(lease.message));
    lease.ack();
  }
  return out;
}

describe('LegacyBus', () => {
  it('queues `id` messages for every user', () => {
    const { bus, queues } = setup();
    expect(bus.publish({ channel: 'id', delivery: 'durable', xml: '<a/>' })).toEqual({
      delivery: 'durable',
      queued: 2,
    });
    expect(queues.depth(all)).toBe(1);
    expect(queues.depth(countdown)).toBe(1);
  });

  it('queues a catalog channel for its subscribers only', () => {
    const { bus, queues } = setup();
    expect(bus.publish({ channel: 'Result', delivery: 'durable', xml: '<r/>' })).toEqual({
      delivery: 'durable',
      queued: 1,
    });
    expect(queues.depth(all)).toBe(1);
    expect(queues.depth(countdown)).toBe(0);
  });

  it('sends transient messages to matching hub subscribers with the body clients read', () => {
    const { bus, hub, clock } = setup();
    const seen: Record<string, TransientXmlMessage[]> = { all: [], cd: [] };
    hub.subscribe(all, (m) => void seen.all?.push(m));
    hub.subscribe(countdown, (m) => void seen.cd?.push(m));
    expect(
      bus.publish({ channel: 'SplitTimes', delivery: 'transient', payloadKey: 'k', xml: '<s/>' }),
    ).toEqual({
      delivery: 'transient',
      recipients: 1,
    });
    expect(bus.publish({ channel: 'TimeToStart', delivery: 'transient', xml: '<t/>' })).toEqual({
      delivery: 'transient',
      recipients: 2,
    });
    expect(seen.all?.[0]).toEqual({
      channel: 'SplitTimes',
      payloadKey: 'k',
      payload: '<s/>',
      timestamp: new Date(clock.now()).toISOString(),
    });
    expect(seen.cd).toEqual([
      expect.objectContaining({ channel: 'TimeToStart', payloadKey: null, payload: '<t/>' }),
    ]);
  });

  it('refuses an unknown channel, listing the known ones, and queues nothing', () => {
    const { bus, queues } = setup();
    let error: unknown;
    try {
      bus.publish({ channel: 'Nope', delivery: 'durable', xml: '<a/>' });
    } catch (err) {
      error = err;
    }
    expect(isSimError(error) && error.code).toBe('UNKNOWN_CHANNEL');
    expect((error as Error).message).toContain('id, RaceDay');
    expect(queues.totalDepth).toBe(0);
  });

  it('queues and sends nothing for malformed XML', () => {
    const { bus, queues, hub } = setup();
    const deliver = jest.fn();
    hub.subscribe(all, deliver);
    expect(() => bus.publish({ channel: 'id', delivery: 'durable', xml: '<a>' })).toThrow(/well-formed/);
    expect(() => bus.publish({ channel: 'id', delivery: 'transient', xml: 'text' })).toThrow(/well-formed/);
    expect(queues.totalDepth).toBe(0);
    expect(deliver).not.toHaveBeenCalled();
  });

  it('drops messages older than the retention period (settings wiring, fake time)', async () => {
    const { bus, queues, clock } = setup(1000, 100);
    bus.publish({ channel: 'id', delivery: 'durable', xml: '<old/>' });
    clock.advance(600);
    bus.publish({ channel: 'id', delivery: 'durable', xml: '<new/>' });
    clock.advance(500);
    expect(await drain(queues, all)).toEqual(['<new/>']);
  });

  it('keeps at most maxPerUser messages, dropping the oldest', async () => {
    const { bus, queues } = setup(60_000, 3);
    for (const n of [1, 2, 3, 4, 5])
      bus.publish({ channel: 'id', delivery: 'durable', xml: `<m n="${n}"/>` });
    expect(await drain(queues, all)).toEqual(['<m n="3"/>', '<m n="4"/>', '<m n="5"/>']);
  });
});
