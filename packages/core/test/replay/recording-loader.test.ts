import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChannelCatalog } from '../../src/channel-catalog';
import { SAMPLE_CHANNELS } from '../sample-description';
import { isSimError } from '../../src/errors';
import { formatProblem, loadRecordings, parseRecordingLine, recordingFiles } from '../../src/replay';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'replay-loader-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function write(rel: string, lines: Array<object | string>): Promise<string> {
  const file = path.join(dir, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n',
  );
  return file;
}

const legacy = (at: string, extra: object = {}) => ({
  at,
  delivery: 'durable',
  channel: 'RaceDay',
  payloadKey: 'k',
  xml: '<RaceDay date="2024-05-11"/>',
  ...extra,
});

const json = (at: string, extra: object = {}) => ({
  at,
  delivery: 'transient',
  channel: 'TimeToStartTrot',
  date: '2024-05-11',
  trackId: 901,
  raceNr: 1,
  payload: { secondsToStart: 10 },
  ...extra,
});

describe('replay: parseRecordingLine', () => {
  it('reads a legacy line', () => {
    const result = parseRecordingLine(
      'legacy',
      JSON.stringify(legacy('2024-05-11T10:00:00.000Z')),
      'a.jsonl:1',
    );
    expect(result).toEqual({
      ok: true,
      message: {
        kind: 'legacy',
        at: Date.UTC(2024, 4, 11, 10),
        delivery: 'durable',
        channel: 'RaceDay',
        payloadKey: 'k',
        xml: '<RaceDay date="2024-05-11"/>',
        source: 'a.jsonl:1',
      },
    });
  });

  it('reads a JSON line, leaving absent optional fields out of the message', () => {
    const line = { ...json('2024-05-11T12:00:00+02:00'), raceNr: undefined };
    const result = parseRecordingLine('json', JSON.stringify(line), 'b.jsonl:3');
    expect(result).toEqual({
      ok: true,
      message: {
        kind: 'json',
        at: Date.UTC(2024, 4, 11, 10),
        delivery: 'transient',
        message: {
          channel: 'TimeToStartTrot',
          date: '2024-05-11',
          trackId: 901,
          payload: { secondsToStart: 10 },
        },
        source: 'b.jsonl:3',
      },
    });
  });

  it.each([
    ['not JSON', '{"at":', /not valid JSON/],
    ['an array', '[1]', /one JSON object/],
    ['a zoneless time', JSON.stringify(json('2024-05-11T10:00:00')), /"at"/],
    ['an impossible time', JSON.stringify(json('2024-05-11T25:00:00Z')), /"at"/],
    ['an unknown delivery', JSON.stringify(json('2024-05-11T10:00:00Z', { delivery: 'x' })), /"delivery"/],
    ['a non-date', JSON.stringify(json('2024-05-11T10:00:00Z', { date: '2024-02-30' })), /"date"/],
    ['a payload array', JSON.stringify(json('2024-05-11T10:00:00Z', { payload: [] })), /"payload"/],
    ['a string race number', JSON.stringify(json('2024-05-11T10:00:00Z', { raceNr: '1' })), /"raceNr"/],
    ['a negative start number', JSON.stringify(json('2024-05-11T10:00:00Z', { startNr: -1 })), /"startNr"/],
    ['a bad channel', JSON.stringify(json('2024-05-11T10:00:00Z', { channel: 'a b' })), /"channel"/],
    ['a typo field', JSON.stringify(json('2024-05-11T10:00:00Z', { raceNo: 1 })), /unknown field.*raceNo/],
    ['a legacy line', JSON.stringify(legacy('2024-05-11T10:00:00Z')), /legacy recording line/],
  ])('refuses a JSON line with %s', (_what, text, error) => {
    const result = parseRecordingLine('json', text, 'x:1');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(error);
  });

  it.each([
    ['an empty xml', legacy('2024-05-11T10:00:00Z', { xml: '  ' }), /"xml"/],
    ['non-XML text', legacy('2024-05-11T10:00:00Z', { xml: 'hello' }), /XML/],
    ['a missing payloadKey', legacy('2024-05-11T10:00:00Z', { payloadKey: undefined }), /"payloadKey"/],
    ['a JSON line', json('2024-05-11T10:00:00Z'), /JSON recording line/],
  ])('refuses a legacy line with %s', (_what, line, error) => {
    const result = parseRecordingLine('legacy', JSON.stringify(line), 'x:1');
    expect(!result.ok && result.error).toMatch(error);
  });
});

describe('replay: recordingFiles', () => {
  it("reads the kind's subfolder when there is one, in code-point name order", async () => {
    await write('json/b.jsonl', [json('2024-05-11T10:00:00Z')]);
    await write('json/B.jsonl', [json('2024-05-11T10:00:00Z')]);
    await write('json/a.jsonl', [json('2024-05-11T10:00:00Z')]);
    await write('json/.hidden.jsonl', [json('2024-05-11T10:00:00Z')]);
    await write('json/notes.txt', ['hello']);
    await write('top.jsonl', [json('2024-05-11T10:00:00Z')]);
    const files = await recordingFiles(dir, 'json');
    expect(files.map((f) => path.relative(dir, f))).toEqual(['json/B.jsonl', 'json/a.jsonl', 'json/b.jsonl']);
  });

  it('reads the directory itself without a subfolder, and a single file as given', async () => {
    const top = await write('top.jsonl', [json('2024-05-11T10:00:00Z')]);
    await write('legacy/x.jsonl', [legacy('2024-05-11T10:00:00Z')]);
    expect(await recordingFiles(dir, 'json')).toEqual([top]);
    expect(await recordingFiles(top, 'legacy')).toEqual([top]);
  });

  it('throws RECORDING_INVALID for a missing directory', async () => {
    const error = await recordingFiles(path.join(dir, 'nope'), 'json').catch((e: unknown) => e);
    expect(isSimError(error) && error.code).toBe('RECORDING_INVALID');
  });
});

describe('replay: loadRecordings', () => {
  it('merges files by recorded time, file and line order breaking ties', async () => {
    await write('json/a.jsonl', [
      json('2024-05-11T10:00:02Z', { payload: { n: 'a1' } }),
      '',
      json('2024-05-11T10:00:01Z', { payload: { n: 'a3' } }),
    ]);
    await write('json/b.jsonl', [
      json('2024-05-11T10:00:00Z', { payload: { n: 'b1' } }),
      json('2024-05-11T10:00:02Z', { payload: { n: 'b2' } }),
    ]);
    const loaded = await loadRecordings(dir, 'json');
    expect(loaded.problems).toEqual([]);
    expect(loaded.files.map((f) => path.basename(f))).toEqual(['a.jsonl', 'b.jsonl']);
    expect(loaded.messages.map((m) => m.message.payload.n)).toEqual(['b1', 'a3', 'a1', 'b2']);
    expect(loaded.messages.map((m) => m.source)).toEqual([
      'b.jsonl:1',
      'a.jsonl:3',
      'a.jsonl:1',
      'b.jsonl:2',
    ]);
  });

  it('refuses a broken file whole, naming each bad line, and keeps the good files', async () => {
    await write('legacy/good.jsonl', [legacy('2024-05-11T10:00:00Z')]);
    const bad = await write('legacy/bad.jsonl', [
      legacy('2024-05-11T10:00:00Z'),
      '{oops',
      legacy('2024-05-11T10:00:00Z', { xml: '' }),
    ]);
    const loaded = await loadRecordings(dir, 'legacy');
    expect(loaded.files.map((f) => path.basename(f))).toEqual(['good.jsonl']);
    expect(loaded.messages).toHaveLength(1);
    expect(loaded.problems.map(formatProblem)).toEqual([
      expect.stringMatching(new RegExp(`^${bad}:2: not valid JSON`)),
      `${bad}:3: "xml" must be a non-empty string`,
    ]);
  });

  it('caps the problems listed for one file', async () => {
    await write(
      'json/bad.jsonl',
      Array.from({ length: 25 }, () => '{'),
    );
    const loaded = await loadRecordings(dir, 'json');
    expect(loaded.problems).toHaveLength(11);
    expect(loaded.problems[10]?.message).toBe('15 more invalid line(s) not listed');
  });

  it('reports an empty file, accepts CRLF line ends and a byte-order mark', async () => {
    await write('json/empty.jsonl', ['']);
    const file = path.join(dir, 'json', 'crlf.jsonl');
    await fs.writeFile(file, '\uFEFF' + JSON.stringify(json('2024-05-11T10:00:00Z')) + '\r\n');
    const loaded = await loadRecordings(dir, 'json');
    expect(loaded.messages).toHaveLength(1);
    expect(loaded.problems.map((p) => [path.basename(p.file), p.message])).toEqual([
      ['empty.jsonl', 'holds no messages'],
    ]);
  });

  it('checks channels and delivery against a catalog when given one', async () => {
    await write('json/a.jsonl', [
      json('2024-05-11T10:00:00Z', { channel: 'Nope' }),
      json('2024-05-11T10:00:00Z', { delivery: 'durable' }),
    ]);
    await write('legacy/a.jsonl', [legacy('2024-05-11T10:00:00Z', { channel: 'id', delivery: 'transient' })]);
    const jsonLoaded = await loadRecordings(dir, 'json', {
      catalog: ChannelCatalog.fromJSON(SAMPLE_CHANNELS),
    });
    expect(jsonLoaded.problems.map((p) => p.message)).toEqual([
      'unknown channel "Nope"',
      'channel TimeToStartTrot is transient, but the line says "durable"',
    ]);
    const legacyLoaded = await loadRecordings(dir, 'legacy', {
      catalog: ChannelCatalog.fromJSON(SAMPLE_CHANNELS),
    });
    expect(legacyLoaded.problems).toEqual([]);
  });
});
