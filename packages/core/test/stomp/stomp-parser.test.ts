import { StompFrameError, type StompFrame } from '../../src/stomp/stomp-frame';
import { StompParser, type StompParserLimits } from '../../src/stomp/stomp-parser';

function collect(limits?: StompParserLimits) {
  const frames: StompFrame[] = [];
  let beats = 0;
  const parser = new StompParser(
    {
      onFrame: (f) => frames.push(f),
      onHeartBeat: () => {
        beats += 1;
      },
    },
    limits,
  );
  return { parser, frames, beats: () => beats };
}

const small: StompParserLimits = { maxFrameBytes: 64, maxHeaders: 2, maxHeaderLineBytes: 20 };

describe('StompParser', () => {
  it('parses one NUL-terminated frame', () => {
    const { parser, frames } = collect();
    parser.push('SEND\ndestination:/q\n\nhello\0');
    expect(frames).toHaveLength(1);
    expect(frames[0]?.command).toBe('SEND');
    expect(frames[0]?.headers.destination).toBe('/q');
    expect(frames[0]?.body.toString()).toBe('hello');
  });

  it('parses several frames in one message', () => {
    const { parser, frames } = collect();
    parser.push('SUBSCRIBE\nid:1\ndestination:/a\n\n\0UNSUBSCRIBE\nid:1\n\n\0\nDISCONNECT\n\n\0');
    expect(frames.map((f) => f.command)).toEqual(['SUBSCRIBE', 'UNSUBSCRIBE', 'DISCONNECT']);
  });

  it('reassembles a frame split at every byte', () => {
    const { parser, frames } = collect();
    const text = 'SEND\r\ndestination:/q\r\ncontent-length:3\r\n\r\na\0b\0\r\n';
    for (const ch of text) parser.push(ch);
    expect(frames).toHaveLength(1);
    expect(frames[0]?.headers.destination).toBe('/q');
    expect(frames[0]?.body).toEqual(Buffer.from('a\0b'));
    expect(parser.buffered).toBe(0);
  });

  it('reads a content-length body containing NUL and accepts Buffers', () => {
    const { parser, frames } = collect();
    parser.push(Buffer.from('SEND\ncontent-length:4\n\n\0\0\0\0\0'));
    expect(frames[0]?.body).toEqual(Buffer.alloc(4));
  });

  it('counts bare LF and CRLF between frames as heart-beats', () => {
    const { parser, frames, beats } = collect();
    parser.push('\n');
    parser.push('\r\n');
    parser.push('\r');
    parser.push('\n\n');
    expect(beats()).toBe(4);
    expect(frames).toHaveLength(0);
    expect(parser.buffered).toBe(0);
  });

  it('accepts CRLF line endings (1.2)', () => {
    const { parser, frames } = collect();
    parser.push('CONNECT\r\naccept-version:1.2\r\nhost:x\r\n\r\n\0');
    expect(frames[0]?.headers).toEqual({ 'accept-version': '1.2', host: 'x' });
  });

  it('keeps the first of repeated headers', () => {
    const { parser, frames } = collect();
    parser.push('SEND\nfoo:first\nfoo:second\n\n\0');
    expect(frames[0]?.headers.foo).toBe('first');
  });

  it('treats __proto__ as an ordinary header name', () => {
    const { parser, frames } = collect();
    parser.push('SEND\n__proto__:x\n\n\0');
    expect(frames[0]?.headers['__proto__']).toBe('x');
  });

  it('unescapes headers by the version set between frames, but never CONNECT', () => {
    const { parser, frames } = collect();
    parser.push('CONNECT\nlogin:a\\cb\n\n\0');
    parser.version = '1.2';
    parser.push('SEND\ndestination:a\\cb\\r\n\n\0');
    expect(frames[0]?.headers.login).toBe('a\\cb');
    expect(frames[1]?.headers.destination).toBe('a:b\r');
  });

  it('lets onFrame switch the version before the next frame of the same message', () => {
    const frames: StompFrame[] = [];
    const parser = new StompParser({
      onFrame: (f) => {
        frames.push(f);
        if (f.command === 'CONNECT') parser.version = '1.1';
      },
    });
    parser.push('CONNECT\naccept-version:1.1\n\n\0SUBSCRIBE\nid:a\\cb\n\n\0');
    expect(frames[1]?.headers.id).toBe('a:b');
  });

  it('trims padded 1.0 header values only in 1.0', () => {
    const { parser, frames } = collect();
    parser.push('SEND\ndestination: /q \n\n\0');
    parser.version = '1.1';
    parser.push('SEND\ndestination: /q \n\n\0');
    expect(frames[0]?.headers.destination).toBe('/q');
    expect(frames[1]?.headers.destination).toBe(' /q ');
  });

  const bad: Array<[string, string, StompParserLimits | undefined]> = [
    ['bad-command', 'hello world', undefined],
    ['bad-command', '{"json":true}\n\n\0', undefined],
    ['bad-command', '\0', undefined],
    ['bad-header', 'SEND\nno colon here\n\n\0', undefined],
    ['bad-header', 'SEND\n:value\n\n\0', undefined],
    ['bad-escape', 'SEND\nx:\\t\n\n\0', undefined],
    ['bad-content-length', 'SEND\ncontent-length:abc\n\n\0', undefined],
    ['missing-nul', 'SEND\ncontent-length:1\n\nab\0', undefined],
    ['too-many-headers', 'SEND\na:1\nb:2\nc:3\n\n\0', small],
    ['header-line-too-long', 'SEND\nx:' + 'y'.repeat(20), small],
    ['header-line-too-long', 'S'.repeat(21), small],
    ['frame-too-large', 'SEND\ncontent-length:100\n\n', small],
    ['frame-too-large', 'SEND\n\n' + 'x'.repeat(80), small],
  ];

  it.each(bad)('rejects %s: %j', (reason, input, limits) => {
    const { parser } = collect(limits);
    parser.version = '1.2';
    let error: unknown;
    try {
      parser.push(input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StompFrameError);
    expect((error as StompFrameError).reason).toBe(reason);
  });

  it('stays failed after an error', () => {
    const { parser, frames } = collect();
    expect(() => parser.push('bad frame\n')).toThrow(StompFrameError);
    expect(() => parser.push('DISCONNECT\n\n\0')).toThrow(StompFrameError);
    expect(frames).toHaveLength(0);
  });

  it('delivers the frames before a broken one', () => {
    const { parser, frames } = collect();
    expect(() => parser.push('SEND\n\n\0garbage here')).toThrow(StompFrameError);
    expect(frames).toHaveLength(1);
  });

  it('accepts a frame exactly at the size limit', () => {
    const limits = { maxFrameBytes: 16, maxHeaders: 2, maxHeaderLineBytes: 20 };
    const { parser, frames } = collect(limits);
    parser.push('SEND\n\n' + 'x'.repeat(9) + '\0');
    expect(frames[0]?.body.length).toBe(9);
    expect(() => collect(limits).parser.push('SEND\n\n' + 'x'.repeat(10) + '\0')).toThrow(/exceeds/);
  });
});
