import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { CertifyError, parseIdList, parseSuite, type Suite } from '@racedata/certify';

/** `racedata-sim certify`'s options, parsed and checked: every mistake is a usage error (exit 2). */
export interface CertifyCliOptions {
  readonly suite: Suite | 'all';
  readonly client?: { readonly command: string; readonly args: readonly string[] };
  readonly attach?: { readonly port: number; readonly host: string };
  readonly echo: boolean;
  readonly only?: readonly string[];
  readonly expectedFailures: readonly string[];
  readonly timeoutMs?: number;
  readonly files: { readonly json?: string; readonly junit?: string; readonly markdown?: string };
  readonly verbose: boolean;
  readonly definitions?: string;
}

export function addCertifyOptions(command: Command): Command {
  return (
    command
      .argument('<suite>', 'events, stream, listen, stomp, or all')
      .argument('[client...]', 'the client command and its arguments, after --')
      .addOption(new Option('--attach', 'serve on --port and wait for a client started by hand'))
      .addOption(new Option('--port <n>', 'with --attach: the port to serve on'))
      .addOption(new Option('--host <address>', 'with --attach: the address to serve on (default 127.0.0.1)'))
      .addOption(
        new Option(
          '--echo <where>',
          'the client prints one id or payloadKey a line per message it processed',
        ).choices(['stdout']),
      )
      .addOption(new Option('--report <file>', 'write the JSON report'))
      .addOption(new Option('--junit <file>', 'write a JUnit XML report'))
      .addOption(new Option('--markdown <file>', 'write a markdown report'))
      .addOption(
        new Option(
          '--expected-failures <file>',
          'check ids (one a line) that may fail without failing the run',
        ),
      )
      .addOption(new Option('--only <ids>', 'play only these checks (comma list; suite/id in `all`)'))
      .addOption(new Option('--timeout <seconds>', 'limit for the whole run (default 120 a suite)'))
      .addOption(new Option('--verbose', "show the client's stdout and stderr"))
      // certify's own tests: suites whose verdicts are known, played by the real command.
      .addOption(
        new Option('--definitions <module>', 'suites from a module exporting `definitions`').hideHelp(),
      )
  );
}

export function resolveCertifyOptions(
  suiteArg: string,
  clientArgs: readonly string[],
  flags: Record<string, unknown>,
  cwd: string,
): CertifyCliOptions {
  const usage = (detail: string) => new CertifyError('OPTIONS_INVALID', { detail });
  const suite = parseSuite(suiteArg);
  const text = (name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);
  const attach = flags.attach === true;
  if (!attach && text('host') !== undefined)
    throw usage('--host is for --attach (a started client is served on 127.0.0.1)');
  if (!attach && text('port') !== undefined)
    throw usage('--port is for --attach (a started client gets a free port)');
  if (attach && clientArgs.length > 0)
    throw usage('--attach waits for a client started by hand: give no command');
  if (attach && text('echo') !== undefined)
    throw usage(
      '--echo stdout reads the output of a client certify starts; an attached client is graded on what it ' +
        'sends and receives (checks that need the echo say so)',
    );
  if (!attach && clientArgs.length === 0)
    throw usage('no client command: racedata-sim certify <suite> -- <command> [args...]');
  let port = 0;
  if (attach) {
    const raw = text('port');
    if (raw === undefined) throw usage('--attach needs --port N');
    port = Number(raw);
    // 0 takes a free port, printed with the variables (a script that reads them needs no fixed one).
    if (!/^\d+$/.test(raw) || port > 65535) throw usage(`--port ${raw}: expected a port from 0 to 65535`);
  }
  const timeout = text('timeout');
  let timeoutMs: number | undefined;
  if (timeout !== undefined) {
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw usage(`--timeout ${timeout}: expected a number of seconds above 0`);
    timeoutMs = Math.round(seconds * 1000);
  }
  const only = text('only');
  const [command, ...args] = clientArgs;
  return {
    suite,
    ...(command !== undefined && { client: { command, args } }),
    ...(attach && { attach: { port, host: text('host') ?? '127.0.0.1' } }),
    echo: text('echo') === 'stdout',
    ...(only !== undefined && { only: parseIdList(only, /,/) }),
    expectedFailures: readExpectedFailures(text('expectedFailures'), cwd),
    ...(timeoutMs !== undefined && { timeoutMs }),
    files: {
      ...(text('report') !== undefined && { json: text('report') }),
      ...(text('junit') !== undefined && { junit: text('junit') }),
      ...(text('markdown') !== undefined && { markdown: text('markdown') }),
    },
    verbose: flags.verbose === true,
    ...(text('definitions') !== undefined && { definitions: text('definitions') }),
  };
}

function readExpectedFailures(file: string | undefined, cwd: string): string[] {
  if (file === undefined) return [];
  try {
    return parseIdList(readFileSync(new URL(file, `file://${cwd}/`), 'utf8'), /\n/);
  } catch (err) {
    throw new CertifyError(
      'EXPECTED_FAILURES_UNREADABLE',
      { file, detail: (err as Error).message },
      { cause: err },
    );
  }
}
