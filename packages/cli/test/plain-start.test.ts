import fc from 'fast-check';
import { SETTINGS } from '@racedata/core';
import type { CliContext } from '../src/context';
import { plainStart } from '../src/plain-start';
import { buildProgram } from '../src/program';

// A plain simulator start is read without commander (plain-start.ts). Whatever it takes, it must
// read exactly as the whole program does; whatever the program would refuse or read otherwise,
// it must leave to the program.

const ctx: CliContext = {
  env: {},
  stdout: { write: () => true } as unknown as NodeJS.WritableStream,
  stderr: { write: () => true } as unknown as NodeJS.WritableStream,
  exit: () => undefined,
  onShutdownSignal: () => undefined,
};

type Read = { flags: Record<string, unknown> } | { refused: string };

/** What the whole program makes of `args`: the flags its simulator command's action gets, or its refusal. */
async function programRead(args: readonly string[]): Promise<Read> {
  const program = buildProgram(ctx, args);
  let flags: Record<string, unknown> | undefined;
  for (const command of program.commands)
    if (['json', 'legacy', 'all'].includes(command.name()))
      command.action((opts: Record<string, unknown>) => {
        flags = { ...opts };
      });
  try {
    await program.parseAsync(['node', 'racedata-sim', ...args]);
  } catch (err) {
    return { refused: (err as { code?: string }).code ?? String(err) };
  }
  return flags ? { flags } : { refused: 'no simulator command ran' };
}

const withChoices = SETTINGS.find((spec) => spec.flag && spec.choices);
const switches = SETTINGS.filter((spec) => spec.flag && spec.boolean).map((spec) => spec.flag as string);
const valued = SETTINGS.filter((spec) => spec.flag && !spec.boolean).map((spec) => spec.flag as string);

const value = fc.oneof(
  fc.constantFrom('0', '3000', '127.0.0.1', 'today', 'true', 'no', '', 'a b', '-1', '--port', 'x=y'),
  ...(withChoices?.choices ? [fc.constantFrom(...withChoices.choices)] : []),
  fc.string({ maxLength: 6 }),
);
const flagName = fc.constantFrom(
  ...valued,
  ...switches,
  ...switches.map((flag) => flag.replace(/^--/, '--no-')),
  '--seed',
  '--legacy-port',
  '--json-port',
  '--no-replay',
  '--no-race-day',
  '--unknown',
  '--help',
  '--version',
);
// One word or a flag and what may follow it, as a user might write them.
const piece = fc.oneof(
  fc.tuple(flagName).map(([flag]) => [flag]),
  fc.tuple(flagName, value).map(([flag, text]) => [flag, text]),
  fc.tuple(flagName, value).map(([flag, text]) => [`${flag}=${text}`]),
  fc.constantFrom(['--'], ['-h'], ['-V'], ['extra'], ['help']),
);
const commandLine = fc
  .tuple(fc.constantFrom('json', 'legacy', 'all', 'replay', 'help'), fc.array(piece, { maxLength: 6 }))
  .map(([command, pieces]) => [command, ...pieces.flat()]);

test('whatever a plain start takes, it reads as the whole program does', async () => {
  let taken = 0;
  await fc.assert(
    fc.asyncProperty(commandLine, async (args) => {
      const plain = plainStart(args);
      if (!plain) return;
      taken++;
      expect(await programRead(args)).toEqual({ flags: plain.flags });
      expect(plain.command).toBe(args[0]);
    }),
    { numRuns: 1500 },
  );
  // The property says nothing about command lines it never took.
  expect(taken).toBeGreaterThan(100);
});

test.each([
  [['json', '--port', '0', '--host', '127.0.0.1']],
  [['legacy', '--port=8080', '--log-level', 'warn', '--no-replay']],
  [['all', '--race-day', 'today', '--race-day-speed', '12', '--race-day-at', 'next-race']],
  [['json', '--seed', '1000', '--rebase-dates', '--token-mode=jwt']],
  [['all', '--legacy-port', '0', '--json-port', '0', '--no-race-day', '--no-log-requests']],
])('the usual start %j is read without commander, as commander reads it', async (args) => {
  const plain = plainStart(args);
  expect(plain).toBeDefined();
  expect(await programRead(args)).toEqual({ flags: plain?.flags });
});

test.each([
  [['--version']],
  [['json', '--help']],
  [['json', '--port']],
  [['json', '--port', '-1']],
  [['json', '--rebase-dates', 'yes']],
  [['json', '--log-level', 'loud']],
  [['json', 'extra']],
  [['json', '--', '--port', '1']],
  [['legacy', '--seed', '10']],
  [['json', '--json-port', '1']],
  [['replay', '--speed', '2']],
])('%j is left to the whole program', (args) => {
  expect(plainStart(args)).toBeUndefined();
});
