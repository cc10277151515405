import { killAllChildren } from './processes';

/** `--name=value` or `--name value`; '' for a bare `--name`; undefined when absent (bench, soak and abuse). */
export function flag(args: readonly string[], name: string): string | undefined {
  const arg = args.find((a) => a === name || a.startsWith(`${name}=`));
  if (arg?.includes('=')) return arg.slice(arg.indexOf('=') + 1);
  const next = arg === undefined ? undefined : (args[args.indexOf(arg) + 1] ?? '');
  return next?.startsWith('--') ? '' : next;
}

/** A numeric flag within [min, max]; a usage error (exit 2) otherwise. */
export function numberFlag(args: readonly string[], name: string, min: number, max: number) {
  const raw = flag(args, name);
  const value = Number(raw);
  const ok = raw === undefined || (raw !== '' && value >= min && value <= max);
  usageUnless(ok, `${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return raw === undefined ? undefined : value;
}

/** Exits 2 with `message` unless `ok`: the command line was wrong. */
export function usageUnless(ok: unknown, message: string): void {
  if (ok) return;
  console.error(message);
  process.exit(2);
}

/** Runs `check`; what it throws is a usage error (exit 2). */
export function usageCheck(check: () => unknown): void {
  try {
    check();
  } catch (err) {
    usageUnless(false, (err as Error).message);
  }
}

/**
 * Runs a harness and exits with the code it returns. Ctrl-C (or a kill) takes every process it
 * started with it; a harness that throws exits 2, its processes killed.
 */
export function runMain(what: string, main: () => Promise<number>): void {
  const exit = (code: number) => {
    killAllChildren();
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => exit(130));
  main().then(exit, (err: unknown) => {
    console.error(`${what} failed: ${(err as Error).stack ?? String(err)}`);
    exit(2);
  });
}
