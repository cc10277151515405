/**
 * `racedata-sim anonymise IN OUT` as users run it: the built command in its own process, then
 * the simulators started on its output, as a user would replay what they share.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CLI_BIN, rawRequest, startSimProcess } from '@racedata/test-support/sim-process';
import { tempFolderEachTest } from './record-process';

const BUNDLED = path.resolve(__dirname, '..', '..', '..', 'recordings');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_BIN, 'anonymise', ...args],
      { env: { ...process.env, ...env }, timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function lineCount(dir: string, kind: string): number {
  return readdirSync(path.join(dir, kind)).reduce(
    (n, file) =>
      n +
      readFileSync(path.join(dir, kind, file), 'utf8')
        .split('\n')
        .filter((l) => l !== '').length,
    0,
  );
}

const inTemp = tempFolderEachTest('anonymise-cli-');

// The bundled day as generated (scripts/generate-recordings.ts): its files, sizes and a horse of it.
const TROT_FILE = readdirSync(path.join(BUNDLED, 'json')).find((f) => f.endsWith('-trot.jsonl'))!;
const GALLOP_FILE = readdirSync(path.join(BUNDLED, 'json')).find((f) => f.endsWith('-gallop.jsonl'))!;
const A_HORSE = /"horse":"([^"]+)"/.exec(readFileSync(path.join(BUNDLED, 'json', TROT_FILE), 'utf8'))![1]!;

test('anonymises the bundled day into OUT, prints the summary, and both simulators replay OUT', async () => {
  const out = inTemp('out');
  const ran = await cli([
    BUNDLED,
    out,
    '--salt',
    'team-salt',
    '--redact',
    'odds',
    'payload.placings.prizeSek',
  ]);
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  const total = lineCount(BUNDLED, 'json') + lineCount(BUNDLED, 'legacy');
  expect(ran.stdout).toContain(`anonymised ${total} messages in 4 file(s) into ${out}`);
  const trotLines = readFileSync(path.join(BUNDLED, 'json', TROT_FILE), 'utf8')
    .split('\n')
    .filter(Boolean).length;
  expect(ran.stdout).toContain(`  json/${TROT_FILE}: ${trotLines} messages`);
  const replaced = /^replaced: (.*)$/m
    .exec(ran.stdout)![1]!
    .split(', ')
    .map((part) => part.split(' ')[0]);
  expect(replaced).toEqual(
    expect.arrayContaining(['breeder', 'driver', 'horse', 'jockey', 'owner', 'trainer']),
  );
  expect(ran.stdout).toMatch(/^redacted: odds \d+, payload\.placings\.prizeSek \d+$/m);
  expect(ran.stdout).not.toContain('salt: random');
  const written = ['json', 'legacy'].flatMap((kind) =>
    readdirSync(path.join(out, kind)).map((f) => readFileSync(path.join(out, kind, f), 'utf8')),
  );
  expect(written.join('')).not.toMatch(/"odds"|odds=|prizeSek/);
  expect(written.join('')).not.toContain(`"horse":"${A_HORSE}"`);
  for (const kind of ['json', 'legacy'] as const) {
    const sim = await startSimProcess(kind, ['--recordings', out, '--auto-replay-interval', '600000']);
    const state = await rawRequest(sim.base, 'GET', '/_sim/state');
    expect(state.json?.replay).toMatchObject({ on: true, total: lineCount(out, kind) });
    expect(sim.output()).not.toMatch(/refused/);
  }
});

test('the same salt, from the flag or ANONYMISE_SALT, writes the same bytes; without one each run differs', async () => {
  const runs = ['a', 'b', 'c', 'd'].map(inTemp);
  const [, , random] = await Promise.all([
    cli([BUNDLED, runs[0]!, '--salt', 'same']),
    cli([BUNDLED, runs[1]!], { ANONYMISE_SALT: 'same' }),
    cli([BUNDLED, runs[2]!]),
    cli([BUNDLED, runs[3]!]),
  ]);
  expect(random!.stdout).toContain('salt: random');
  const file = (run: string) => readFileSync(path.join(run, 'json', GALLOP_FILE), 'utf8');
  expect(file(runs[1]!)).toBe(file(runs[0]!));
  expect(file(runs[2]!)).not.toBe(file(runs[0]!));
  expect(file(runs[3]!)).not.toBe(file(runs[2]!));
});

test('a broken input exits 2 naming file:line and writes nothing; OUT = IN exits 2 and IN is untouched', async () => {
  const inDir = inTemp('in');
  mkdirSync(path.join(inDir, 'json'), { recursive: true });
  const good = readFileSync(path.join(BUNDLED, 'json', GALLOP_FILE), 'utf8').split('\n')[0]!;
  const file = path.join(inDir, 'json', 'day.jsonl');
  writeFileSync(file, `${good}\n${good}\n{"at":"yesterday"}\n`);
  const out = inTemp('out');
  const broken = await cli([inDir, out, '--salt', 's']);
  expect(broken.code).toBe(2);
  expect(broken.stderr).toMatch(
    new RegExp(`^racedata-sim anonymise: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: `),
  );
  expect(existsSync(out)).toBe(false);
  writeFileSync(file, `${good}\n`);
  const same = await cli([inDir, inDir, '--salt', 's']);
  expect(same.code).toBe(2);
  expect(same.stderr).toContain('OUT must differ from IN');
  expect(readFileSync(file, 'utf8')).toBe(`${good}\n`);
});
