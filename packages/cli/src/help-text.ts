import { SETTINGS, type SettingSpec, type SimulatorKind } from '@racedata/core';
import { EXIT_BAD_CONFIG, EXIT_FAILED } from './errors';

/** A simulator command, `all`, or the top-level help (every setting of every command). */
export type HelpFor = SimulatorKind | 'all' | 'top';

function fallbackText(spec: SettingSpec, kind: HelpFor): string {
  if (kind === 'json' || kind === 'legacy') return spec.defaultFor(kind) ?? 'off';
  const json = spec.defaultFor('json');
  const legacy = spec.defaultFor('legacy');
  return json === legacy ? (json ?? 'off') : `${legacy} legacy, ${json} JSON`;
}

function rows(cells: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...cells.map(([name]) => name.length));
  return cells.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
}

/**
 * Every setting by its environment variable, with its flag when it has one: rendered from the
 * settings table, like the table of docs/configuration.md, so none can be left out.
 */
export function settingsHelp(kind: HelpFor): string {
  // `all` takes its two ports instead of PORT.
  const specs = kind === 'all' ? SETTINGS.filter((spec) => spec.key !== 'port') : SETTINGS;
  const cells: Array<readonly [string, string]> = specs.map((spec) => [
    spec.flag ? `${spec.env} (${spec.flag})` : spec.env,
    `${spec.description} (default ${fallbackText(spec, kind)})`,
  ]);
  if (kind === 'all' || kind === 'top') {
    cells.push(['LEGACY_PORT (--legacy-port)', 'the legacy port of `all`, instead of PORT (default 8080)']);
    cells.push(['JSON_PORT (--json-port)', 'the JSON port of `all`, instead of PORT (default 3000)']);
  }
  cells.push(['NO_COLOR', 'any value: no colours in pretty log lines']);
  return [
    'Settings (environment variable, and flag where there is one; a flag beats its variable):',
    ...rows(cells),
  ].join('\n');
}

export const EXIT_CODES_HELP = [
  'Exit codes:',
  '  0    stopped cleanly: SIGTERM or Ctrl-C (SIGINT), --help, --version',
  `  ${EXIT_FAILED}    unexpected failure: cannot listen (port in use), a crash, an error while stopping`,
  `  ${EXIT_BAD_CONFIG}    usage or configuration error: unknown command or flag, a malformed value, a users,`,
  '       channels, recordings or --seed file that cannot be read or is invalid',
  '  130  a second SIGTERM or Ctrl-C while stopping: ends at once',
].join('\n');

/** The page of the repository's docs/ each command's --help ends with: where to read on. */
export const DOCS_PAGES: Readonly<Record<string, string>> = {
  'racedata-sim': 'docs/configuration.md',
  json: 'docs/configuration.md',
  legacy: 'docs/configuration.md',
  all: 'docs/configuration.md',
  replay: 'docs/replay-and-recordings.md',
  record: 'docs/replay-and-recordings.md#recording-a-live-feed-racedata-sim-record',
  anonymise: 'docs/replay-and-recordings.md#anonymising-recordings-racedata-sim-anonymise',
  certify: 'docs/certify.md',
  'race-day': 'docs/race-days.md#writing-days-as-recordings-racedata-sim-race-day',
};

export function docsHelp(command: string): string {
  const page = DOCS_PAGES[command] ?? DOCS_PAGES['racedata-sim'];
  return `Read more: ${page} in the racedata-sim repository (the README links every page).`;
}
