import { describeEvent, evidenceOf } from '../src/evidence';
import { capEvidence } from '../src/run/scenario-play';

describe('evidence', () => {
  it('describes a request with its query, status, time taken and the eventIds it carried', () => {
    const at = Date.parse('2026-11-26T10:00:00.000Z');
    const event = {
      kind: 'request' as const,
      at,
      endedAt: at + 31,
      method: 'GET',
      path: '/customerapi/events',
      query: { lastEventId: '12' },
      auth: 'bearer' as const,
      status: 200,
      answered: { messages: 5, eventIds: [13, 14, 15, 17, 19], hasMore: true },
    };
    expect(evidenceOf(event)).toEqual({
      at: '2026-11-26T10:00:00.000Z',
      what: 'GET /customerapi/events?lastEventId=12 -> 200 (31 ms) [eventIds 13-15, 17, 19, hasMore]',
    });
    expect(describeEvent({ ...event, status: 'aborted', answered: undefined, query: {} })).toBe(
      'GET /customerapi/events -> aborted (31 ms)',
    );
  });

  it('describes sessions, upgrades and the client', () => {
    const at = 0;
    expect(describeEvent({ kind: 'upgrade', at, path: '/api/v1/channels/connect', auth: 'bearer' })).toBe(
      'upgrade /api/v1/channels/connect (bearer)',
    );
    expect(describeEvent({ kind: 'session-closed', at, user: 'u', transport: 'stomp', code: 4000 })).toBe(
      'session closed 4000 (stomp)',
    );
    expect(describeEvent({ kind: 'client-exit', at, code: 3, signal: null })).toBe(
      'client exited with code 3',
    );
  });
});

describe('capEvidence', () => {
  it('keeps a long list to its first and last entries, saying how many it left out', () => {
    const evidence = Array.from({ length: 500 }, (_, i) => ({ at: `t${i}`, what: `request ${i}` }));
    const kept = capEvidence(evidence, 20);
    expect(kept).toHaveLength(20);
    expect(kept[9]).toEqual({ at: 't9', what: 'request 9' });
    expect(kept[10]).toEqual({ at: 't491', what: '... 481 more left out' });
    expect(kept[19]).toEqual({ at: 't499', what: 'request 499' });
    expect(capEvidence(evidence.slice(0, 20), 20)).toEqual(evidence.slice(0, 20));
  });
});
