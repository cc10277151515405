import { ManualClock, SimError, type EventInput } from '@racedata/core';
import { jsonChannelCatalog } from '../src/description';
import { ChannelBus } from '../src/channel-bus';

describe('ChannelBus', () => {
  let clock: ManualClock;
  let broadcast: jest.Mock<number, [EventInput]>;
  let bus: ChannelBus;

  beforeEach(() => {
    clock = new ManualClock();
    broadcast = jest.fn((_input: EventInput) => 2);
    bus = new ChannelBus({ catalog: jsonChannelCatalog(), clock, maxEvents: 3, transient: { broadcast } });
  });

  test('a durable channel is stored and the stored event returned', () => {
    const result = bus.publish({ channel: 'RaceDayTrot', date: '2026-01-01', payload: { a: 1 } });
    expect(result.delivery).toBe('durable');
    if (result.delivery !== 'durable') throw new Error('unreachable');
    expect(result.event).toMatchObject({ eventId: 1, channel: 'RaceDayTrot', payload: { a: 1 } });
    expect(bus.store.size).toBe(1);
    expect(bus.store.latest(['RaceDayTrot'])).toEqual(result.event);
    expect(broadcast).not.toHaveBeenCalled();
  });

  test('a durable publish wakes the long polls of that channel only', async () => {
    const trot = bus.polls.wait((c) => c === 'RaceDayTrot', 1000);
    const gallop = bus.polls.wait((c) => c === 'RaceDayGallop', 1000);
    bus.publish({ channel: 'RaceDayTrot', date: '2026-01-01', payload: {} });
    expect(await trot).toBe('notified');
    expect(bus.polls.size).toBe(1);
    clock.advance(1000);
    expect(await gallop).toBe('timeout');
  });

  test('the store cap comes from maxEvents', () => {
    for (let i = 0; i < 5; i++) bus.publish({ channel: 'ResultTrot', date: '2026-01-01', payload: { i } });
    expect(bus.store.size).toBe(3);
  });

  test('a transient channel goes to the fan-out once, is never stored, and reports its recipients', () => {
    const input = { channel: 'TimeToStartTrot', date: '2026-01-01', raceNr: 3, payload: { s: 60 } };
    expect(bus.publish(input)).toEqual({ delivery: 'transient', recipients: 2 });
    expect(broadcast).toHaveBeenCalledTimes(1);
    expect(broadcast).toHaveBeenCalledWith(input);
    expect(bus.store.size).toBe(0);
  });

  test('a transient publish does not wake long polls', async () => {
    let outcome: string | undefined;
    void bus.polls.wait(() => true, 100).then((o) => (outcome = o));
    bus.publish({ channel: 'SplitTimesTrot', date: '2026-01-01', payload: {} });
    await Promise.resolve();
    await Promise.resolve();
    expect(outcome).toBeUndefined();
    clock.advance(100);
    await Promise.resolve();
    expect(outcome).toBe('timeout');
  });

  test('an unknown channel is a 400 UNKNOWN_CHANNEL listing the known channels; nothing happens', () => {
    let error: unknown;
    try {
      bus.publish({ channel: 'Nope', date: '2026-01-01', payload: {} });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SimError);
    expect(error).toMatchObject({ code: 'UNKNOWN_CHANNEL', status: 400 });
    const message = (error as SimError).message;
    expect(message).toContain('"Nope"');
    for (const name of jsonChannelCatalog().names()) expect(message).toContain(name);
    expect(bus.store.size).toBe(0);
    expect(broadcast).not.toHaveBeenCalled();
  });

  test('exposes its catalog', () => {
    expect(bus.catalog.kindOf('RaceDayTrot')).toBe('durable');
  });

  test('close() answers held long polls with "closed"', async () => {
    const held = bus.polls.wait(() => true, 60_000);
    bus.close();
    expect(await held).toBe('closed');
    expect(await bus.polls.wait(() => true, 60_000)).toBe('closed');
  });
});
