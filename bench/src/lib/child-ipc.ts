import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * The child side of a server under test: it announces its port and answers the harness's
 * commands (preload, memory, waiting, close) over the IPC channel of `fork`.
 */
export type Handler = (args: Record<string, unknown>) => unknown;

interface Command {
  readonly id: number;
  readonly cmd: string;
  readonly args?: Record<string, unknown>;
}

let session: Session | undefined;

/**
 * V8's CPU profiler (what `node --cpu-prof` runs), switched on for exactly the measured load
 * rather than for the whole process, so start-up does not swamp the profile.
 */
const profiling: Record<string, Handler> = {
  /** CPU time the process used so far (µs), to charge a stretch of load with its cost. */
  cpu: () => process.cpuUsage(),
  'profile-start': async () => {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    return true;
  },
  'profile-stop': async (args) => {
    if (!session) throw new Error('profiler not started');
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    session = undefined;
    writeFileSync(String(args.file), JSON.stringify(profile));
    return args.file;
  },
};

/** `close` (the harness's way to end a child) closes what `own.close` closes, then exits. */
export function serveIpc(port: number, own: Record<string, Handler>): void {
  const handlers: Record<string, Handler> = {
    ...profiling,
    ...own,
    close: async (args) => {
      await own.close?.(args);
      return exitSoon();
    },
  };
  const send = (message: unknown) => process.send?.(message);
  process.on('message', (raw: Command) => {
    const handler = handlers[raw.cmd];
    if (!handler) {
      send({ id: raw.id, ok: false, error: `unknown command ${raw.cmd}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(raw.args ?? {}))
      .then(
        (result) => send({ id: raw.id, ok: true, result }),
        (err: unknown) => send({ id: raw.id, ok: false, error: String((err as Error)?.stack ?? err) }),
      );
  });
  // The harness went away (crash, Ctrl-C): never outlive it.
  process.on('disconnect', () => process.exit(0));
  send({ ready: true, port });
}

/** Resident memory after two full collections (children run with --expose-gc). */
export function measuredMemory(): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage();
}

/** Replies, then exits once the reply is on its way (a --cpu-prof profile is written on exit). */
export function exitSoon(): { closing: true } {
  setTimeout(() => process.exit(0), 20);
  return { closing: true };
}
