/**
 * Hang-up storm against the legacy long poll of the racedata-sim command in a process of its own:
 * durable messages injected in bursts of 10 while pollers destroy their connection 0-20 ms after
 * sending and a few keep-alive pollers read every answer; then a polite drain until 204. Prints
 * how many messages no complete answer carried (lost) and how many two answers carried.
 *
 *   npm run build && npx tsx scripts/legacy/hangup-storm.ts [messages] [pollers] [honest] [seed]
 *   CONTROL_API=off npx tsx scripts/legacy/hangup-storm.ts 2000 100 3 1
 */
import { startSimProcess } from '../../test-support/sim-process';
import { stormLegacyListen } from '../../packages/legacy-sim/test/listen-storm';

async function main(): Promise<void> {
  const [messages = 2000, pollers = 100, honestPollers = 3, seed = 1] = process.argv.slice(2).map(Number);
  const env: Record<string, string> = process.env.CONTROL_API ? { CONTROL_API: process.env.CONTROL_API } : {};
  const sim = await startSimProcess('legacy', ['--long-poll-timeout', '300'], env);
  try {
    const started = Date.now();
    const result = await stormLegacyListen({
      base: sim.base,
      token: 'dGVzdHVzZXI=',
      messages,
      pollers,
      honestPollers,
      maxAbortMs: 20,
      burst: 10,
      seed,
    });
    console.log(
      JSON.stringify({ messages, pollers, honestPollers, seed, ms: Date.now() - started, ...result }),
    );
  } finally {
    await sim.close();
  }
}

void main();
