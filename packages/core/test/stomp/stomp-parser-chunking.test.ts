import fc from 'fast-check';
import { StompFrameError, type StompVersion } from '../../src/stomp/stomp-frame';
import { DEFAULT_PARSER_LIMITS, StompParser, type StompParserLimits } from '../../src/stomp/stomp-parser';

interface Outcome {
  frames: string[];
  beats: number;
  error: string | undefined;
  buffered: number;
}

/** Feeds `input` cut at `cuts` and records what came out; anything but a StompFrameError escapes. */
function run(input: Buffer, cuts: number[], version: StompVersion, limits: StompParserLimits): Outcome {
  const out: Outcome = { frames: [], beats: 0, error: undefined, buffered: 0 };
  const parser = new StompParser(
    {
      onFrame: (f) => {
        out.frames.push(JSON.stringify([f.command, { ...f.headers }, f.body.toString('hex')]));
      },
      onHeartBeat: () => {
        out.beats += 1;
      },
    },
    limits,
  );
  parser.version = version;
  const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  try {
    for (const at of [...points, input.length]) {
      if (at > from) parser.push(input.subarray(from, at));
      from = Math.max(from, at);
    }
  } catch (err) {
    if (!(err instanceof StompFrameError)) throw err;
    out.error = err.reason;
  }
  out.buffered = out.error ? 0 : parser.buffered;
  return out;
}

const piece = fc.oneof(
  fc.constantFrom(
    'CONNECT\naccept-version:1.2\n\n\0',
    'SUBSCRIBE\nid:0\ndestination:/user/topic/publish\n\n\0',
    'SEND\ncontent-length:3\n\na\0b\0',
    'SEND\r\ndestination:a\\cb\r\n\r\nbody\0',
    'ACK\nid:x\\ny\n\n\0',
    '\n',
    '\r\n',
    '\r',
    '\0',
    ':',
    'content-length:5\n',
  ),
  fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.string({ maxLength: 12 }),
);

const input = fc
  .array(fc.tuple(piece, fc.boolean()), { maxLength: 12 })
  .map((parts) => Buffer.concat(parts.map(([p, latin1]) => Buffer.from(p, latin1 ? 'latin1' : 'utf8'))));

const limits = fc.constantFrom<StompParserLimits>(DEFAULT_PARSER_LIMITS, {
  maxFrameBytes: 48,
  maxHeaders: 2,
  maxHeaderLineBytes: 16,
});

describe('StompParser under arbitrary chunking', () => {
  it('gives the same frames, heart-beats and verdict whether fed whole or in pieces', () => {
    fc.assert(
      fc.property(
        input,
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.constantFrom<StompVersion>('1.0', '1.1', '1.2'),
        limits,
        (bytes, cuts, version, lim) => {
          const whole = run(bytes, [], version, lim);
          const pieces = run(bytes, cuts, version, lim);
          expect(pieces).toEqual(whole);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives the same result fed one byte at a time', () => {
    fc.assert(
      fc.property(input, limits, (bytes, lim) => {
        const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
        expect(run(bytes, everyByte, '1.2', lim)).toEqual(run(bytes, [], '1.2', lim));
      }),
      { numRuns: 500 },
    );
  });
});

describe('StompParser work', () => {
  const frame = (bodyBytes: number) => Buffer.from(`SEND\ndestination:/q\n\n${'x'.repeat(bodyBytes)}\0`);

  it.each([
    ['a NUL-terminated body', frame(200_000)],
    ['a content-length body', Buffer.from(`SEND\ncontent-length:200000\n\n${'x'.repeat(200_000)}\0`)],
    ['a long header block', Buffer.from(`SEND\n${'h:v\n'.repeat(60)}\n\0`)],
  ])('copies O(n) bytes for %s delivered 10 bytes at a time', (_what, bytes) => {
    let frames = 0;
    const parser = new StompParser({ onFrame: () => (frames += 1) });
    for (let at = 0; at < bytes.length; at += 10) parser.push(bytes.subarray(at, at + 10));
    expect(frames).toBe(1);
    // Growth by doubling copies each byte at most about three times in total.
    expect(parser.bytesCopied).toBeLessThan(3 * bytes.length);
    expect(parser.buffered).toBe(0);
  });

  it('copies nothing when whole frames arrive one per message', () => {
    const parser = new StompParser({ onFrame: () => undefined });
    for (let i = 0; i < 1000; i++) parser.push(frame(100));
    expect(parser.bytesCopied).toBe(0);
  });

  it('gives back a large buffer once its frame completed', () => {
    const parser = new StompParser({ onFrame: () => undefined });
    const bytes = frame(100_000);
    parser.push(bytes.subarray(0, 50_000));
    expect(parser.buffered).toBe(50_000);
    parser.push(bytes.subarray(50_000));
    expect(parser.buffered).toBe(0);
  });
});
