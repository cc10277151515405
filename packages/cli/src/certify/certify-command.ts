import type { Command } from 'commander';
import {
  certify,
  exitCodeOf,
  isCertifyError,
  loadDefinitions,
  progressLine,
  reportTable,
  writeReports,
  type Report,
} from '@racedata/certify';
import { consoleAssets } from '@racedata/console';
import type { CliContext } from '../context';
import { docsRoot } from '../docs-root';
import { ON_DEMAND_COMMANDS } from '../on-demand-commands';
import { EXIT_FAILED } from '../errors';
import { addCertifyOptions, resolveCertifyOptions } from './certify-options';

/** Ctrl-C during a certification: the partial report is printed, then the process ends with this. */
export const EXIT_INTERRUPTED = 130;

const CLIENT_VARIABLES_HELP = [
  'The client is started with its own environment plus:',
  '  RACEDATA_URL, RACEDATA_WS_URL   HTTP and WebSocket base of the simulator',
  '  RACEDATA_KEY, RACEDATA_SECRET   what it authenticates with (a new secret each run)',
  '  RACEDATA_STOMP_URL              legacy: the STOMP endpoint',
  '  RACEDATA_STOMP_DESTINATION      legacy: the destination to subscribe to',
  '  RACEDATA_SUITE                  the suite being played',
  "  RACEDATA_LONG_POLL_MS           the simulator's long-poll limit (production: 60000)",
  "  RACEDATA_PING_INTERVAL_MS       the simulator's event-stream Ping interval (production: 60000)",
  'With --attach they are printed, and served as NAME=value lines at',
  '  GET <RACEDATA_URL>/_sim/certify/variables (for a client in a container).',
].join('\n');

export const CERTIFY_EXIT_CODES_HELP = [
  'Exit codes:',
  '  0    no required check failed (expected failures aside)',
  '  1    a required check failed, the client ended early, or the run timed out',
  '  2    usage error: unknown suite, bad --only id, unreadable --expected-failures file,',
  '       a client command that does not exist, a malformed option',
  '  130  interrupted (Ctrl-C): the client was stopped and the partial report printed',
].join('\n');

/**
 * `racedata-sim certify <suite> [options] -- <command> [args...]`: plays a suite's scenarios
 * against the client and grades what it did. Progress and the table go to stdout, errors to
 * stderr; the client inherits this process's environment plus the RACEDATA_* variables.
 */
export function registerCertifyCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('certify')
    .description(ON_DEMAND_COMMANDS.certify.description)
    .usage('<suite> [options] -- <command> [args...]')
    .addHelpText('after', `\n${CLIENT_VARIABLES_HELP}\n\n${CERTIFY_EXIT_CODES_HELP}\n`);
  addCertifyOptions(command).action(
    async (suite: string, clientArgs: string[], flags: Record<string, unknown>) => {
      const say = (line: string) => ctx.stdout.write(`${line}\n`);
      let code: number;
      try {
        const options = resolveCertifyOptions(suite, clientArgs, flags, process.cwd());
        const interrupt = new AbortController();
        ctx.onShutdownSignal(() => interrupt.abort());
        const definitions = options.definitions && loadDefinitions(options.definitions, process.cwd());
        const report: Report = await certify({
          suite: options.suite,
          ...(definitions && { definitions }),
          ...(options.client && {
            client: {
              ...options.client,
              env: ctx.env,
              ...(options.verbose && {
                onOutput: (stream: string, line: string) => ctx.stderr.write(`client ${stream}| ${line}\n`),
              }),
            },
          }),
          ...(options.attach && { attach: options.attach }),
          echo: options.echo,
          ...(options.only && { only: options.only }),
          expectedFailures: options.expectedFailures,
          ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
          signal: interrupt.signal,
          // Each suite's simulator serves the console, with the certification shown live.
          consoleAssets,
          ...docsDep(),
          progress: (event) => {
            const line = progressLine(event);
            if (line !== undefined) say(line);
          },
        });
        say('');
        ctx.stdout.write(reportTable(report));
        await writeReports(report, options.files);
        code = interrupt.signal.aborted ? EXIT_INTERRUPTED : exitCodeOf(report);
      } catch (err) {
        ctx.stderr.write(`racedata-sim certify: ${(err as Error).message}\n`);
        code = isCertifyError(err) ? err.exitCode : EXIT_FAILED;
      }
      ctx.exit(code);
    },
  );
}

/** The docs pages the console links, served at /_sim/docs/ where they were installed. */
function docsDep(): { docsRoot?: string } {
  const root = docsRoot();
  return root === undefined ? {} : { docsRoot: root };
}
