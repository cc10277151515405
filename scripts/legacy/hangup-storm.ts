/**
 * Hang-up storm against the legacy long poll: 200 durable messages for one user, 50 pollers that
 * abort after a random 0-20 ms, then one polite poller draining until 204. Prints how many
 * messages no completed response carried (lost) and how many two responses carried (duplicates).
 *
 *   npm run build && npx tsx scripts/legacy/hangup-storm.ts [messages] [pollers] [maxAbortMs] [seed]
 */
import { legacyChannelCatalog, UserTable } from '@racedata/core';
import { createLegacySimulator } from '@racedata/legacy-sim';
import { stormLegacyListen } from '../../packages/legacy-sim/test/listen-storm';

async function main(): Promise<void> {
  const [messages = 200, pollers = 50, maxAbortMs = 20, seed = 1] = process.argv.slice(2).map(Number);
  const catalog = legacyChannelCatalog();
  const users = UserTable.fromJSON(
    [{ name: 'one', key: 'testuser', secret: 'testpassword', token: 'dGVzdHVzZXI=', channels: '*' }],
    catalog,
  );
  const sim = createLegacySimulator({ longPollTimeoutMs: 300 }, { users, catalog });
  const { port } = await sim.listen(0, '127.0.0.1');
  try {
    const result = await stormLegacyListen({
      base: `http://127.0.0.1:${port}`,
      token: 'dGVzdHVzZXI=',
      messages,
      pollers,
      maxAbortMs,
      seed,
    });
    console.log(JSON.stringify({ messages, pollers, maxAbortMs, seed, ...result }));
  } finally {
    await sim.close();
  }
}

void main();
