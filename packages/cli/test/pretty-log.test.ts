import { PassThrough } from 'node:stream';
import { createLogger } from '@racedata/core';
import { resolveLogFormat } from '../src/log-output';
import { prettyDestination, prettyLine } from '../src/pretty-log';

const plain = { colors: false };

describe('prettyLine', () => {
  test('time, level name, source and message first, then the fields as key=value', () => {
    const line = prettyLine(
      '{"level":"info","time":"2026-05-11T10:00:00.000Z","sim":"json","method":"GET","path":"/health","status":200,"ms":0.4,"msg":"request"}\n',
      plain,
    );
    expect(line).toBe(
      '2026-05-11T10:00:00.000Z INFO  json: request method=GET path=/health status=200 ms=0.4\n',
    );
  });

  test('quotes values that would be misread, writes objects as JSON, colours the level on request', () => {
    const line = prettyLine(
      '{"level":"warn","time":"2026-05-11T10:00:00.000Z","name":"replay","reason":"connect ECONNREFUSED","at":{"n":1},"msg":"post failed"}',
      { colors: true },
    );
    expect(line).toBe(
      '2026-05-11T10:00:00.000Z \u001b[33mWARN \u001b[0m replay: post failed reason="connect ECONNREFUSED" at={"n":1}\n',
    );
  });

  test("an error's stack follows on indented lines", () => {
    const line = prettyLine(
      JSON.stringify({
        level: 'error',
        time: '2026-05-11T10:00:00.000Z',
        err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at here (file.ts:1:1)' },
        msg: 'error while shutting down',
      }),
      plain,
    );
    expect(line).toBe(
      '2026-05-11T10:00:00.000Z ERROR error while shutting down\n    Error: boom\n    at here (file.ts:1:1)\n',
    );
  });

  test('a line that is not a JSON object passes through', () => {
    expect(prettyLine('not json\n', plain)).toBe('not json\n');
    expect(prettyLine('[1,2]\n', plain)).toBe('[1,2]\n');
  });
});

test('a logger writing through the pretty destination prints ISO time and the level name', () => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const logger = createLogger({ level: 'debug', destination: prettyDestination(out, plain) });
  logger.child({ sim: 'legacy' }).debug({ user: 'testuser' }, 'session open');
  expect(text).toMatch(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z DEBUG legacy: session open user=testuser\n$/,
  );
});

test('createLogger writes JSON with an ISO time and the level by name', () => {
  const lines: string[] = [];
  createLogger({ destination: { write: (line: string) => lines.push(line) } }).warn({ n: 1 }, 'hello');
  const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
  expect(entry).toMatchObject({ level: 'warn', n: 1, msg: 'hello' });
  expect(new Date(entry.time as string).toISOString()).toBe(entry.time);
});

describe('resolveLogFormat', () => {
  test('auto is pretty on a terminal and JSON on anything else; a named format is kept', () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    const pipe = new PassThrough();
    expect(resolveLogFormat('auto', tty)).toBe('pretty');
    expect(resolveLogFormat('auto', pipe)).toBe('json');
    expect(resolveLogFormat('json', tty)).toBe('json');
    expect(resolveLogFormat('pretty', pipe)).toBe('pretty');
  });
});
