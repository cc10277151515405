import { execFile, spawn } from 'node:child_process';
import { closeAll } from '@racedata/test-support';
import { startSimPairProcess, type SimPairProcess } from '@racedata/test-support/sim-process';
import { onPorts, shapeProblems, shellBlocks, withoutComment, type ShellBlock } from './docs/commands';
import { docPages, ROOT } from './docs/markdown';

// The shell blocks of the README and docs/ that start or call a simulator are what users paste:
// each is run here against the built command in a process of its own, or says why it is not.
const blocks = docPages().flatMap(shellBlocks);
const COMMAND_DEADLINE_MS = 15_000;
const STATUS = '__docs_test_status__';

function blockText(block: ShellBlock): string {
  return block.commands.map((c) => [c.text, ...c.shown].join('\n')).join('\n');
}

afterAll(() => closeAll());

test('every shell block that calls a simulator is run here, or says why not', () => {
  const unmarked = blocks.filter((b) => b.mode === undefined).map((b) => `${b.file}:${b.line}`);
  const noReason = blocks.filter((b) => b.mode === 'skip' && !/^\(.+\)$/.test(b.detail));
  expect(unmarked).toEqual([]);
  expect(noReason.map((b) => `${b.file}:${b.line}`)).toEqual([]);
  expect(blocks.filter((b) => b.mode === 'run').length).toBeGreaterThan(5);
});

function run(command: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', command],
      { cwd: ROOT, timeout: COMMAND_DEADLINE_MS },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          output: stdout + stderr,
        });
      },
    );
  });
}

/** Runs a command that runs until stopped; resolves with its first line, or what it printed by the deadline. */
function firstLine(command: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `exec ${command}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const done = () => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      resolve(text.split('\n')[0] ?? '');
    };
    const timer = setTimeout(done, COMMAND_DEADLINE_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) done();
    });
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  });
}

const byPage = new Map<string, ShellBlock[]>();
for (const block of blocks.filter((b) => b.mode === 'run' || b.mode === 'first-line')) {
  byPage.set(block.file, [...(byPage.get(block.file) ?? []), block]);
}

describe.each([...byPage])('shell blocks of %s', (file, pageBlocks) => {
  let sims: SimPairProcess;

  beforeAll(async () => {
    const flags = new Set(pageBlocks.map((b) => b.detail));
    if (flags.size > 1)
      throw new Error(`${file}: the blocks of one page run against one simulator: ${[...flags]}`);
    sims = await startSimPairProcess(pageBlocks[0]!.detail.split(/\s+/).filter(Boolean));
  }, 30_000);
  afterAll(() => sims?.close());

  test.each(pageBlocks.map((b) => [`line ${b.line}`, b] as const))(
    '%s runs as shown',
    async (_, block) => {
      for (const { text, shown } of block.commands) {
        const command = onPorts(withoutComment(text), sims.json.port, sims.legacy.port);
        if (block.mode === 'first-line') {
          const line = await firstLine(command);
          expect({ command: text, problems: line ? shapeProblems(shown, line) : ['no output'] }).toEqual({
            command: text,
            problems: [],
          });
          continue;
        }
        // curl exits 0 on any answer: its status is checked too, and an error status passes only
        // where the block itself says the command may answer it (a journal wait's 408).
        const isCurl = /^curl\s/.test(command);
        const { code, output } = await run(isCurl ? `${command} -w '\\n${STATUS}%{http_code}\\n'` : command);
        const status = Number(new RegExp(`${STATUS}(\\d+)`).exec(output)?.[1] ?? 0);
        const refused =
          isCurl && (status === 0 || (status >= 400 && !blockText(block).includes(String(status))));
        expect({
          command: text,
          code,
          refused: refused ? status : false,
          problems: shapeProblems(shown, output),
        }).toEqual({
          command: text,
          code: 0,
          refused: false,
          problems: [],
        });
      }
    },
    60_000,
  );
});
