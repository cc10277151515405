import { ControlError, startSimulators, type RunningSimulators } from 'racedata-sim';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function started<T extends { close(): Promise<void> }>(sims: Promise<T>): Promise<T> {
  const s = await sims;
  running.push(s);
  return s;
}

describe('the test kit and race days', () => {
  it('starts both simulators on one shared day: the same plan, in step, restarted together', async () => {
    const sims: RunningSimulators = await started(
      startSimulators({ settings: { raceDay: '2026-05-13', raceDayAt: '15:00', raceDayEdgeCases: 'all' } }),
    );
    const both = await sims.control.raceDay();
    expect(both.json!.play.startedAt).toBe(both.legacy!.play.startedAt);
    expect(both.json!.meetings).toEqual(both.legacy!.meetings);
    expect(both.json!.edgeCases.map((e) => e.id).length).toBeGreaterThanOrEqual(19);

    const again = await sims.control.startRaceDay({
      date: '2026-08-02',
      seed: 9,
      edgeCases: 'none',
      at: '13:00',
    });
    expect(again.json.play.startedAt).toBe(again.legacy.play.startedAt);
    expect(again.legacy).toMatchObject({ date: '2026-08-02', seed: 9, edgeCases: [] });
    // Started once: the legacy queues hold the new day's history once.
    const queued = (await sims.legacy.state()).users.testuser!.queueDepth;
    expect(queued).toBeGreaterThan(10);
    expect(queued).toBeLessThan(400);

    expect(await sims.json.stopRaceDay()).toBe(true);
    expect(await sims.legacy.raceDay()).toBeUndefined();
    expect((await sims.control.state()).legacy.raceDay).toEqual({ on: false });
  });

  it('reads the payload schemas, and refuses a bad day with a typed error', async () => {
    const sims = await started(startSimulators({ legacy: false }));
    const index = await sims.json.payloadSchemas();
    expect(index.channels.map((c) => c.channel)).toContain('ResultTrot');
    expect(await sims.json.payloadSchema('TimeToStartGallop')).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'urn:racedata-sim:payload:TimeToStartGallop',
    });
    const error = await sims.json.startRaceDay({ edgeCases: 'dead-heat@1:1' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({ status: 400, code: 'RACE_DAY_NO_SUCH_RACE' });
    expect(await sims.json.raceDay()).toBeUndefined();
  });
});
