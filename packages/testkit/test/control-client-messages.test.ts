import { ControlError } from 'racedata-sim';
import { TOKEN, closeAll, get, started } from './support';

afterEach(closeAll);

describe('ControlClient: post() to the JSON simulator', () => {
  test('a durable channel is stored (the event with its id) and served to the subscriber', async () => {
    const { json, jsonUrl } = await started({ legacy: false });
    const result = await json.post({
      channel: 'RaceDayTrot',
      date: '2024-05-11',
      trackId: 5,
      payload: { n: 1 },
    });
    expect(result).toEqual({
      delivery: 'durable',
      event: {
        eventId: 1,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        channel: 'RaceDayTrot',
        date: '2024-05-11',
        trackId: 5,
        payload: { n: 1 },
      },
    });
    const page = await get(`${jsonUrl}/customerapi/events?lastEventId=0`);
    expect(JSON.parse(page.text)).toMatchObject({ data: { events: [{ eventId: 1, payload: { n: 1 } }] } });
  });

  test('a transient channel is broadcast once, to nobody here', async () => {
    const { json } = await started({ legacy: false });
    expect(await json.post({ channel: 'TimeToStartTrot', date: '2024-05-11', payload: {} })).toEqual({
      delivery: 'transient',
      recipients: 0,
    });
  });

  test('a refused message is a ControlError with the server’s message (HTTP_ERROR: the answer has no code)', async () => {
    const { json } = await started({ legacy: false });
    const error = (await json
      .post({ channel: 'Nope', date: '2024-05-11', payload: {} })
      .catch((e: unknown) => e)) as ControlError;
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({ status: 400, code: 'HTTP_ERROR' });
    expect(error.message).toMatch(/^unknown channel "Nope"; known channels: RaceDayTrot/);
  });
});

describe('ControlClient: inject() into the legacy simulator', () => {
  test('durable to every user (channel id) is queued and comes out of the long poll', async () => {
    const { legacy, legacyUrl } = await started({ json: false });
    expect(await legacy.inject('<race id="7"/>', { payloadKey: 'race-7' })).toEqual({
      delivery: 'durable',
      queued: 1,
    });
    const listen = await get(`${legacyUrl}/customerapi/channels/listen`, TOKEN);
    expect(listen.status).toBe(200);
    expect(JSON.parse(listen.text)).toBe('<race id="7"/>');
    const received = await legacy.journal({ kind: 'received' });
    expect(received.entries).toEqual([
      expect.objectContaining({ source: 'inject', channel: 'id', durable: true, payloadKey: 'race-7' }),
    ]);
  });

  test('NonDurable to a channel goes to live STOMP sessions: none here', async () => {
    const { legacy } = await started({ json: false });
    expect(await legacy.inject('<t/>', { durable: false, channel: 'TimeToStart' })).toEqual({
      delivery: 'transient',
      recipients: 0,
    });
    expect((await legacy.journal({ kind: 'received' })).entries).toEqual([
      expect.objectContaining({ channel: 'TimeToStart', durable: false }),
    ]);
  });

  test('malformed XML and unknown channels are ControlErrors with the legacy simulator’s codes', async () => {
    const { legacy } = await started({ json: false });
    await expect(legacy.inject('<open>')).rejects.toMatchObject({ status: 400, code: 'INVALID_XML' });
    await expect(legacy.inject('<a/>', { channel: 'Nowhere' })).rejects.toMatchObject({
      status: 400,
      code: 'UNKNOWN_CHANNEL',
      message: expect.stringContaining('unknown channel'),
    });
    expect((await legacy.state()).queues?.messages).toBe(0);
  });
});
