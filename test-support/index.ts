/**
 * What every package's tests share: starting a server on a free port, closing everything a test
 * opened, and waiting for a condition that has no event of its own. Test code only; no package
 * imports it from src.
 */
import type { AddressInfo } from 'node:net';

/** Anything a test opens and afterEach must close: a simulator, a socket, a server. */
export interface Closable {
  close(): unknown;
}

const open: Closable[] = [];

/** Registers something for closeAll() and returns it. */
export function closeAfterTest<T extends Closable>(thing: T): T {
  open.push(thing);
  return thing;
}

/**
 * Closes everything registered since the last call, newest first (clients before the servers
 * they talk to), and resolves once all of it is closed. Call it in afterEach.
 */
export async function closeAll(): Promise<void> {
  const all = open.splice(0).reverse();
  await Promise.all(all.map((thing) => thing.close()));
}

/** A simulator as its factory returns it: it opens no port until listen(). */
export interface Listenable extends Closable {
  listen(port: number, host: string): Promise<AddressInfo>;
}

export interface Listening {
  address: AddressInfo;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
}

/** Listens on a free loopback port (never a fixed one) and registers the server for closeAll(). */
export async function listenForTest(server: Listenable): Promise<Listening> {
  closeAfterTest(server);
  const address = await server.listen(0, '127.0.0.1');
  return { address, port: address.port, base: `http://127.0.0.1:${address.port}` };
}

/**
 * Resolves once condition() holds, checking every few milliseconds; for state with no event of
 * its own (a poll being held, a counter reaching a value). Bounded, so a broken test fails with
 * what it waited for instead of hanging.
 */
export async function waitFor(condition: () => boolean, what = 'condition', timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * waitFor() for a condition only an async call can check (a held poll seen through
 * /_sim/state): asks every few milliseconds until it holds; bounded the same way.
 */
export async function eventually(
  condition: () => Promise<boolean>,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export { JSON_TESTUSER_CHANNELS, TOKENS, USERS, type DefaultUser } from './users';
export { flush, track } from './settling';

/**
 * Builds a simulator with its test-only probe (the factory hands the probe to `deps.probe`) and
 * registers it for closeAll(); it does not listen yet.
 */
export function createProbed<S extends Closable, P, D extends { probe?: (probe: P) => void }, C>(
  factory: (settings: C, deps: D) => S,
  settings: C,
  deps: D,
): { sim: S; probe: P } {
  let probe: P | undefined;
  const sim = factory(settings, {
    ...deps,
    probe: (p: P) => {
      probe = p;
      deps.probe?.(p);
    },
  });
  closeAfterTest(sim);
  if (probe === undefined) throw new Error('the simulator handed out no probe');
  return { sim, probe };
}
