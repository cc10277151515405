import { ManualClock, type RecordedLegacyMessage } from '@racedata/core';
import { SseClient } from '../../../test-support/sse';
import { closeAfterTest } from '@racedata/test-support';
import { closeAll, post, startSim } from './support';

afterEach(closeAll);

const RECORDED: RecordedLegacyMessage = {
  kind: 'legacy',
  at: Date.UTC(2024, 4, 11, 12),
  delivery: 'transient',
  source: 'l:1',
  channel: 'TimeToStart',
  payloadKey: 'TimeToStart-2024-05-11-901-1',
  xml: '<TimeToStart date="2024-05-11" trackId="901" raceNr="1" secondsToStart="180"/>',
};

describe('legacy console routes', () => {
  test('the catalog samples a recorded document and its payloadKey, dates moved to today', async () => {
    const s = await startSim(
      {},
      { recordings: [RECORDED], clock: new ManualClock(Date.UTC(2026, 5, 1, 12)) },
    );
    const body = (await (await fetch(`${s.base}/_sim/catalog`)).json()) as {
      simulator: string;
      channels: Array<{ name: string; kind: string; sample: unknown }>;
    };
    expect(body.simulator).toBe('legacy');
    expect(body.channels.find((c) => c.name === 'TimeToStart')).toEqual({
      name: 'TimeToStart',
      kind: 'transient',
      sample: {
        xml: '<TimeToStart date="2026-06-01" trackId="901" raceNr="1" secondsToStart="180"/>',
        payloadKey: 'TimeToStart-2026-06-01-901-1',
      },
    });
    expect(body.channels.find((c) => c.name === 'RaceDay')).toEqual({
      name: 'RaceDay',
      kind: 'durable',
      sample: null,
    });
  });

  test('an injection streams as an entry whose payload is the XML document', async () => {
    const s = await startSim();
    const stream = closeAfterTest(await SseClient.open(`${s.base}/_sim/stream`));
    await stream.next((e) => e.event === 'state');
    expect((await post(s.base, '/customerapi/channel/id/Durable?payloadKey=k1', '<a><b/></a>')).status).toBe(
      200,
    );
    const entry = JSON.parse((await stream.next((e) => e.event === 'entry')).data) as { seq: number };
    expect(entry).toMatchObject({
      kind: 'received',
      source: 'inject',
      channel: 'id',
      durable: true,
      payloadKey: 'k1',
    });
    const message = (await (await fetch(`${s.base}/_sim/messages/${entry.seq}`)).json()) as {
      payload: string;
    };
    expect(message.payload).toBe('<a><b/></a>');
    // A refused document is not journalled: nothing half-posted.
    expect((await post(s.base, '/customerapi/channel/id/Durable', '<a>')).status).toBe(400);
    const state = (await (await fetch(`${s.base}/_sim/state`)).json()) as { journal: { lastSeq: number } };
    expect(state.journal.lastSeq).toBe(entry.seq);
  });

  test('replay control answers on the legacy simulator too', async () => {
    const s = await startSim({}, { recordings: [RECORDED] });
    const res = await fetch(`${s.base}/_sim/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'start', intervalMs: 60_000 }),
    });
    expect(await res.json()).toMatchObject({
      on: true,
      recorded: 1,
      nextRace: '2024-05-11 track 901 race 1',
    });
  });
});
