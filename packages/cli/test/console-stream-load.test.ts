import net from 'node:net';
import { closeAll } from '@racedata/test-support';
import { startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';
import { readPage, seedEvents } from './control-load-support';

// Console streams (GET /_sim/stream) against the simulator in its own process.
afterEach(closeAll);

/** A stream client that reads the answer's head and then never reads again. */
function stalledStream(base: string): Promise<net.Socket> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('GET /_sim/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    socket.once('data', (head: Buffer) => {
      socket.pause();
      if (head.toString('latin1').startsWith('HTTP/1.1 200')) resolve(socket);
      else reject(new Error(head.toString('latin1').split('\r\n')[0]));
    });
  });
}

/** Stops the process and resolves with everything it printed. */
async function stopped(sim: SimProcess): Promise<string> {
  const closed = new Promise((resolve) => sim.child.once('close', resolve));
  await sim.close();
  await closed;
  return sim.output();
}

describe('GET /_sim/stream with clients that do not read', () => {
  test('each is cut once, logged once, and frees its slot; past CONSOLE_STREAMS_MAX 429', async () => {
    const sim = await startJson({
      CONSOLE_STREAMS_MAX: '3',
      CONSOLE_STREAM_MAX_BUFFERED_BYTES: '65536',
    });
    const stalled = await Promise.all([1, 2, 3].map(() => stalledStream(sim.base)));
    const refused = await fetch(`${sim.base}/_sim/stream`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      status: 'fail',
      code: 'CONSOLE_STREAMS_LIMIT',
      message: expect.stringContaining('CONSOLE_STREAMS_MAX'),
    });
    // 50,000 entries of about 250 bytes each: far past what the kernel buffers of a loopback
    // socket hold, so each stalled client runs over its 64 KiB and is cut.
    await seedEvents(sim.base, 50_000);
    for (let after = 0; after < 50_000; after += 10_000)
      expect(await readPage(sim.base, after, 10_000)).toBe(10_000);
    const health = await fetch(`${sim.base}/health`, { signal: AbortSignal.timeout(5000) });
    expect(health.status).toBe(200);
    // The slots are free again at once, without waiting for the cut sockets' close.
    const again = new AbortController();
    const reopened = await fetch(`${sim.base}/_sim/stream`, { signal: again.signal });
    expect(reopened.status).toBe(200);
    again.abort();
    for (const socket of stalled) socket.destroy();
    const cuts = (await stopped(sim)).split('\n').filter((line) => line.includes('too slow'));
    // One line per client; before, every frame written after a cut logged the cut again.
    expect(cuts).toHaveLength(3);
  });
});

/** The JSON simulator as its own process, without replay, logging warnings and worse as JSON. */
function startJson(env: Record<string, string> = {}): Promise<SimProcess> {
  return startSimProcess('json', ['--no-replay'], { LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env });
}
