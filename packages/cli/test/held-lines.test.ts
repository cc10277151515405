import { spawn } from 'node:child_process';
import path from 'node:path';
import { HOLD_MS, HeldLines, MAX_HELD_CHARS } from '../src/held-lines';

/** A destination that records each write it is given. */
function recorder() {
  const writes: string[] = [];
  return { writes, write: (text: string) => void writes.push(text) };
}

describe('HeldLines', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('holds lines for HOLD_MS, then writes them in one write, in order', () => {
    const out = recorder();
    const lines = new HeldLines(out);
    lines.write('a\n');
    lines.write('b\n');
    jest.advanceTimersByTime(HOLD_MS - 1);
    expect(out.writes).toEqual([]);
    lines.write('c\n');
    jest.advanceTimersByTime(1);
    expect(out.writes).toEqual(['a\nb\nc\n']);
    lines.write('d\n');
    jest.advanceTimersByTime(HOLD_MS);
    expect(out.writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes at once when a flood passes MAX_HELD_CHARS', () => {
    const out = recorder();
    const lines = new HeldLines(out);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i <= MAX_HELD_CHARS / line.length; i++) lines.write(line);
    expect(out.writes).toHaveLength(1);
    expect(out.writes[0]).toHaveLength(line.length * (MAX_HELD_CHARS / line.length + 1));
    expect(jest.getTimerCount()).toBe(0);
  });

  it('flush() writes what is held and stops the timer', () => {
    const out = recorder();
    const lines = new HeldLines(out);
    lines.write('a\n');
    lines.flush();
    lines.flush();
    expect(out.writes).toEqual(['a\n']);
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('a process that exits with lines held', () => {
  it('writes them first, whether it ends by process.exit or by running out of work', async () => {
    const source = path.join(__dirname, '..', 'src', 'held-lines.ts');
    const script = `
      const { HeldLines } = require(${JSON.stringify(source)});
      const lines = new HeldLines({ write: (text) => process.stdout.write(text) }, 60_000);
      lines.write('first\\n');
      lines.write('second\\n');
      if (process.argv[1] === 'exit') process.exit(3);`;
    for (const how of ['exit', 'drain']) {
      const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script, how], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect({ how, code, out }).toEqual({ how, code: how === 'exit' ? 3 : 0, out: 'first\nsecond\n' });
    }
  });
});
