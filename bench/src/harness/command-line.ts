import { killAllChildren } from './processes';

/**
 * The value of `--name=value` or `--name value`; '' for a bare `--name`; undefined when absent.
 * Shared by `npm run bench`, `npm run soak` and `npm run abuse`.
 */
export function flag(args: readonly string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const arg = args[i] as string;
  if (arg.includes('=')) return arg.slice(arg.indexOf('=') + 1);
  const next = args[i + 1];
  return next !== undefined && !next.startsWith('--') ? next : '';
}

/** A numeric flag within [min, max]; a usage error (exit 2) otherwise. */
export function numberFlag(
  args: readonly string[],
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = flag(args, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw === '' || !Number.isFinite(value) || value < min || value > max) {
    usageError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function usageError(message: string): never {
  console.error(message);
  process.exit(2);
}

/**
 * Runs a harness and exits with the code it returns. Ctrl-C (or a kill) takes every process it
 * started with it; a harness that throws exits 2, its processes killed.
 */
export function runMain(what: string, main: () => Promise<number>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`${what} failed: ${(err as Error).stack ?? String(err)}`);
      killAllChildren();
      process.exit(2);
    },
  );
}
