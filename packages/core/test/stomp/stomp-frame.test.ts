import {
  escapeHeader,
  escapesHeaders,
  serializeFrame,
  StompFrameError,
  unescapeHeader,
} from '../../src/stomp/stomp-frame';
import { StompParser } from '../../src/stomp/stomp-parser';
import type { StompFrame } from '../../src/stomp/stomp-frame';

function parseAll(text: string, version: '1.0' | '1.1' | '1.2' = '1.2'): StompFrame[] {
  const frames: StompFrame[] = [];
  const parser = new StompParser({ onFrame: (f) => frames.push(f) });
  parser.version = version;
  parser.push(text);
  return frames;
}

describe('header escaping', () => {
  it('escapes nothing in 1.0', () => {
    expect(escapeHeader('a:b\\c\nd', '1.0')).toBe('a:b\\c\nd');
    expect(unescapeHeader('a\\cb', '1.0')).toBe('a\\cb');
  });

  it('escapes backslash, LF and colon in 1.1 but not CR', () => {
    expect(escapeHeader('a:b\\c\nd\re', '1.1')).toBe('a\\cb\\\\c\\nd\re');
    expect(unescapeHeader('a\\cb\\\\c\\nd', '1.1')).toBe('a:b\\c\nd');
    expect(() => unescapeHeader('a\\rb', '1.1')).toThrow(StompFrameError);
  });

  it('also escapes CR in 1.2', () => {
    expect(escapeHeader('x\ry', '1.2')).toBe('x\\ry');
    expect(unescapeHeader('x\\ry', '1.2')).toBe('x\ry');
  });

  it('treats an undefined escape or a trailing backslash as fatal', () => {
    expect(() => unescapeHeader('a\\tb', '1.2')).toThrow(/undefined escape/);
    expect(() => unescapeHeader('a\\', '1.2')).toThrow(StompFrameError);
  });

  it('round-trips any value', () => {
    const value = 'k:v\\w\nx\ry';
    expect(unescapeHeader(escapeHeader(value, '1.2'), '1.2')).toBe(value);
  });

  it('never escapes CONNECT or CONNECTED', () => {
    expect(escapesHeaders('CONNECTED', '1.2')).toBe(false);
    expect(escapesHeaders('CONNECT', '1.2')).toBe(false);
    expect(escapesHeaders('STOMP', '1.2')).toBe(false);
    expect(escapesHeaders('MESSAGE', '1.2')).toBe(true);
    expect(escapesHeaders('MESSAGE', '1.0')).toBe(false);
  });
});

describe('serializeFrame', () => {
  it('writes command, headers, blank line, body and NUL with a byte content-length', () => {
    const text = serializeFrame(
      { command: 'MESSAGE', headers: [['destination', '/a:b']], body: 'å€' },
      '1.2',
    );
    expect(text).toBe('MESSAGE\ndestination:/a\\cb\ncontent-length:5\n\nå€\0');
  });

  it('keeps a content-length the caller set and omits it for an empty body', () => {
    expect(serializeFrame({ command: 'RECEIPT', headers: [['receipt-id', '7']] }, '1.1')).toBe(
      'RECEIPT\nreceipt-id:7\n\n\0',
    );
    expect(
      serializeFrame({ command: 'MESSAGE', headers: [['content-length', '2']], body: 'hi' }, '1.1'),
    ).toBe('MESSAGE\ncontent-length:2\n\nhi\0');
  });

  it('does not escape CONNECTED headers', () => {
    expect(serializeFrame({ command: 'CONNECTED', headers: [['server', 'a:b']] }, '1.2')).toBe(
      'CONNECTED\nserver:a:b\n\n\0',
    );
  });

  it('is read back by the parser', () => {
    const text = serializeFrame({ command: 'MESSAGE', headers: [['x', 'a:b\nc']], body: 'with\0nul' }, '1.2');
    const [frame] = parseAll(text);
    expect(frame?.headers.x).toBe('a:b\nc');
    expect(frame?.body.toString()).toBe('with\0nul');
  });
});
