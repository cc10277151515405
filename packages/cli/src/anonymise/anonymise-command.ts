import { randomBytes } from 'node:crypto';
import { Option, type Command } from 'commander';
import { anonymiseRecordings, createAnonymiser, isRecorderError } from '@racedata/recorder';
import type { CliContext } from '../context';
import { envValue } from '../env';
import { EXIT_BAD_CONFIG } from '../errors';
import { formatAnonymiseReport } from './anonymise-report';

export const ANONYMISE_HELP = `
Reads IN/json/*.jsonl and IN/legacy/*.jsonl (the recordings format, recordings/README.md) and
writes OUT/json and OUT/legacy with the same file names. The names of horses, drivers, jockeys,
trainers, owners and breeders (fields, XML attributes and elements named so, plural and ...Name
forms, and every --name-field) become pseudonyms from built-in lists of Swedish-sounding names:
the same name gets the same pseudonym in every message of both simulators' files, and the same
salt gives the same pseudonyms in every run. Ids, numbers, track names and everything else keep
their bytes. Give IN and OUT first: --redact and --name-field take every value after them.

Every line is checked as the replay checks it; the first bad line (not valid JSON or UTF-8,
nested deeper than 64 levels, XML with a DTD) stops the run with file:line, and nothing is
written to OUT. IN is never written to: an OUT inside IN is refused, and so is an IN/json or
IN/legacy that links outside IN. Temporary files a killed run left in OUT are removed.

Settings:
  ANONYMISE_SALT (--salt)   the salt (default: a random one, so names differ in every run)

Exit codes:
  0    done: the summary is on stdout
  ${EXIT_BAD_CONFIG}    a bad option, IN missing or holding a bad line, OUT inside IN or holding a file (without --force)
  1    an unexpected failure (a disk error)
`;

/** `racedata-sim anonymise IN OUT`: the anonymiser over a recordings directory. */
export function registerAnonymiseCommand(program: Command, ctx: CliContext): void {
  program
    .command('anonymise')
    .description('copy a recordings directory with names replaced by pseudonyms and fields redacted')
    .argument('<in>', 'recordings directory to read (IN/json, IN/legacy)')
    .argument('<out>', 'directory to write (OUT/json, OUT/legacy); must differ from IN')
    .addOption(new Option('--salt <salt>', 'salt for the pseudonyms (env ANONYMISE_SALT)'))
    .addOption(
      new Option(
        '--redact <path...>',
        'drop a field: a bare name everywhere, or a path like payload.starters.odds',
      ),
    )
    .addOption(
      new Option('--name-field <name...>', 'treat these fields, attributes or elements as names too'),
    )
    .addOption(new Option('--force', 'replace files already in OUT'))
    .addHelpText('after', ANONYMISE_HELP)
    .action(async (inDir: string, outDir: string, flags: Record<string, unknown>) => {
      ctx.exit(await runAnonymise(ctx, inDir, outDir, flags));
    });
}

function list(value: unknown): string[] {
  const values = Array.isArray(value) ? (value as string[]) : [];
  return values.flatMap((v) => v.split(',')).filter((v) => v.trim() !== '');
}

async function runAnonymise(
  ctx: CliContext,
  inDir: string,
  outDir: string,
  flags: Record<string, unknown>,
): Promise<number> {
  const given = typeof flags.salt === 'string' ? flags.salt : envValue(ctx.env, 'ANONYMISE_SALT');
  const salt = given ?? randomBytes(16).toString('hex');
  try {
    const anonymiser = createAnonymiser({
      salt,
      anonymiseNames: true,
      redact: list(flags.redact),
      extraNameFields: list(flags.nameField),
    });
    const result = await anonymiseRecordings({ inDir, outDir, anonymiser, overwrite: flags.force === true });
    ctx.stdout.write(formatAnonymiseReport(result, outDir, given === undefined));
    return 0;
  } catch (err) {
    if (!isRecorderError(err)) throw err;
    ctx.stderr.write(`racedata-sim anonymise: ${err.message}\n`);
    return EXIT_BAD_CONFIG;
  }
}
