import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock, systemClock } from '@racedata/core';
import { ConsoleStream } from '../src/console-stream';
import { Journal } from '../src/journal';
import { OffsetClock } from '../src/offset-clock';
import { silentLogger } from '@racedata/core';
import { SseClient } from '@racedata/test-support/sse';
import { closeAfterTest, closeAll, waitFor } from '@racedata/test-support';

afterEach(closeAll);

interface SetupOptions {
  /** A ManualClock's timers never fire: only a pushed change can send the state then. */
  readonly clock?: OffsetClock;
  readonly journalMax?: number;
  readonly stateChanges?: (listener: () => void) => () => void;
}

/** A ConsoleStream on a loopback server of its own, with a state the test sets. */
async function setup<S extends object = { n: number }>(
  initial: S = { n: 0 } as unknown as S,
  options: SetupOptions = {},
) {
  const clock = options.clock ?? new OffsetClock(systemClock);
  const journal = new Journal(clock, options.journalMax ?? 100);
  let state = initial;
  const stream = new ConsoleStream({
    journal,
    clock,
    logger: silentLogger(),
    state: () => state,
    ...(options.stateChanges && { stateChanges: options.stateChanges }),
    maxClients: 10,
    maxBufferedBytes: 1024 * 1024,
  });
  const server: Server = createServer((req, res) =>
    stream.handle(req, res, new URL(req.url ?? '/', 'http://x')),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfterTest({
    close: () => {
      stream.close();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const open = async () => closeAfterTest(await SseClient.open(url));
  return { journal, stream, open, setState: (next: S) => (state = next) };
}

describe('ConsoleStream', () => {
  it('listens to the journal only while a client is connected, and forgets clients that leave', async () => {
    const { journal, stream, open } = await setup();
    expect(journal.listenerCount).toBe(0);
    const a = await open();
    const b = await open();
    await a.next((e) => e.event === 'state');
    await b.next((e) => e.event === 'state');
    expect(stream.clientCount).toBe(2);
    expect(journal.listenerCount).toBe(1);
    a.close();
    await waitFor(() => stream.clientCount === 1, 'the first client to be dropped');
    journal.received({ source: 'post', channel: 'A', durable: true });
    expect(JSON.parse((await b.next((e) => e.event === 'entry')).data)).toMatchObject({
      seq: 1,
      channel: 'A',
    });
    b.close();
    await waitFor(() => stream.clientCount === 0, 'the last client to be dropped');
    expect(journal.listenerCount).toBe(0);
  });

  it('sends the state again only when it changed', async () => {
    const { open, setState } = await setup();
    const client = await open();
    await client.next((e) => e.event === 'state');
    setState({ n: 1 });
    const changed = await client.next((e) => e.event === 'state' && e.data.endsWith('"n":1}'), 3000);
    // The time is sent with the state, not compared: it alone never makes a state new.
    expect(JSON.parse(changed.data)).toEqual({ time: expect.any(String), n: 1 });
    expect(client.events.filter((e) => e.event === 'state')).toHaveLength(2);
  });

  it('starts with at most the latest entries the journal holds', async () => {
    const { journal, open } = await setup();
    for (let i = 0; i < 5; i++) journal.received({ source: 'post', channel: `C${i}`, durable: true });
    const client = await open();
    await client.next((e) => e.event === 'state');
    expect(client.entries().map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('ConsoleStream state changes pushed by the simulator (a certification)', () => {
  it('sends a changed state at once, once for changes made together, and never an unchanged one', async () => {
    const listeners = new Set<() => void>();
    const changed = () => listeners.forEach((listener) => listener());
    const { stream, open, setState } = await setup(
      { n: 0 },
      {
        clock: new OffsetClock(new ManualClock()),
        stateChanges: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
    );
    expect(listeners.size).toBe(0);
    const client = await open();
    await client.next((e) => e.event === 'state');
    expect(listeners.size).toBe(1);

    setState({ n: 1 });
    changed();
    changed();
    await client.next((e) => e.event === 'state' && e.data.endsWith('"n":1}'));
    changed();
    setState({ n: 2 });
    changed();
    await client.next((e) => e.event === 'state' && e.data.endsWith('"n":2}'));
    const sent = client.events.filter((e) => e.event === 'state').map((e) => JSON.parse(e.data).n);
    expect(sent).toEqual([0, 1, 2]);

    client.close();
    await waitFor(() => stream.clientCount === 0, 'the client to be dropped');
    expect(listeners.size).toBe(0);
  });

  it('sends the state as it ended before the streams close with the simulator', async () => {
    const { stream, open, setState } = await setup(
      { phase: 'playing' },
      { clock: new OffsetClock(new ManualClock()), journalMax: 10 },
    );
    const client = await open();
    await client.next((e) => e.event === 'state');
    setState({ phase: 'finished' });
    stream.close();
    await client.next((e) => e.event === 'state' && e.data.includes('"phase":"finished"'));
  });
});
