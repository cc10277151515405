import {
  formatHeartBeat,
  negotiateHeartBeat,
  negotiateVersion,
  parseHeartBeat,
  silenceLimit,
} from '../src/stomp/stomp-negotiation';

describe('negotiateVersion', () => {
  it('takes 1.0 when accept-version is absent', () => {
    expect(negotiateVersion({})).toBe('1.0');
  });

  it('takes the highest common version', () => {
    expect(negotiateVersion({ 'accept-version': '1.1,1.0' })).toBe('1.1');
    expect(negotiateVersion({ 'accept-version': '1.0, 1.2 ,1.1' })).toBe('1.2');
    expect(negotiateVersion({ 'accept-version': '1.0' })).toBe('1.0');
  });

  it('finds nothing when no version is shared', () => {
    expect(negotiateVersion({ 'accept-version': '2.0,0.9' })).toBeUndefined();
  });
});

describe('heart-beat negotiation', () => {
  it('parses the header, absent meaning 0,0', () => {
    expect(parseHeartBeat(undefined)).toEqual({ send: 0, receive: 0 });
    expect(parseHeartBeat('100, 200')).toEqual({ send: 100, receive: 200 });
    expect(parseHeartBeat('abc')).toBeUndefined();
    expect(parseHeartBeat('1,2,3')).toBeUndefined();
    expect(parseHeartBeat('-1,0')).toBeUndefined();
  });

  it('uses the larger interval per direction', () => {
    // client cx=100 (can send), cy=300 (wants); server sx=200, sy=50
    expect(negotiateHeartBeat({ send: 100, receive: 300 }, { send: 200, receive: 50 })).toEqual({
      sendEvery: 300,
      expectEvery: 100,
    });
  });

  it('turns a direction off when either side says 0', () => {
    expect(negotiateHeartBeat({ send: 0, receive: 100 }, { send: 50, receive: 50 })).toEqual({
      sendEvery: 100,
      expectEvery: 0,
    });
    expect(negotiateHeartBeat({ send: 100, receive: 100 }, { send: 0, receive: 0 })).toEqual({
      sendEvery: 0,
      expectEvery: 0,
    });
  });

  it('tolerates twice the promised silence, and none when nothing was promised', () => {
    expect(silenceLimit({ sendEvery: 0, expectEvery: 150 })).toBe(300);
    expect(silenceLimit({ sendEvery: 10, expectEvery: 0 })).toBe(0);
  });

  it('formats an offer', () => {
    expect(formatHeartBeat({ send: 10, receive: 20 })).toBe('10,20');
  });
});
