import { ManualClock } from '@racedata/core';
import { simulatorServices } from '../src';
import { SAMPLE_DESCRIPTION } from '../../core/test/sample-description';

describe('GET /health body', () => {
  test('version as given, start time, and uptime on the injected clock that /_sim/clock does not move', () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 11, 10));
    const basics = simulatorServices(
      { ...SAMPLE_DESCRIPTION, kind: 'legacy' },
      {},
      { clock, version: '1.2.3' },
    );
    clock.advance(1500);
    basics.clock.advance(3_600_000);
    expect(basics.health()).toEqual({
      status: 'ok',
      simulator: 'legacy',
      version: '1.2.3',
      startedAt: '2026-05-11T10:00:00.000Z',
      uptimeMs: 1500,
    });
  });

  test('an embedder that passes no version sees "unknown"', () => {
    expect(simulatorServices(SAMPLE_DESCRIPTION, {}, {}).health().version).toBe('unknown');
  });
});
