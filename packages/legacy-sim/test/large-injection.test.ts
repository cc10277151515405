import { TOKENS } from '@racedata/test-support';
import { AUTH, closeAll, post, startSim, StompUser, waitFor } from './support';

afterEach(closeAll);

/**
 * A yieldTurn that parks the well-formedness check at each turn it hands on, until release():
 * the test sees the check stopped half way and what the simulator does meanwhile.
 */
function heldTurns() {
  const parked: Array<() => void> = [];
  let released = false;
  return {
    get parked(): number {
      return parked.length;
    },
    yieldTurn: () =>
      new Promise<void>((resolve) => {
        if (released) resolve();
        else parked.push(resolve);
      }),
    release(): void {
      released = true;
      for (const resume of parked.splice(0)) resume();
    },
  };
}

/** About 880 KB of dense markup: many slices of the check, under MAX_BODY_BYTES. */
const BIG = `<RaceDay>${'<Start nr="1" horse="Häst &amp; co">x</Start>'.repeat(19_000)}</RaceDay>`;

describe('a large injection', () => {
  it('leaves the simulator answering while its document is checked, then queues it whole', async () => {
    const turns = heldTurns();
    const run = await startSim({ longPollTimeoutMs: 500 }, { yieldTurn: turns.yieldTurn });
    const injected = post(run.base, '/customerapi/channel/id/Durable?payloadKey=big', BIG, 'text/xml');
    await waitFor(() => turns.parked > 0, 'the check of the large document to hand the event loop on');
    // The check is parked half way: other requests are answered, and nothing is queued yet.
    expect((await fetch(`${run.base}/health`)).status).toBe(200);
    expect(
      (await post(run.base, '/customerapi/channel/id/Durable?payloadKey=small', '<a/>', 'text/xml')).status,
    ).toBe(200);
    expect(run.probe.queues.totalDepth).toBe(1);
    turns.release();
    expect((await injected).status).toBe(200);
    expect(run.probe.queues.totalDepth).toBe(2);
    const listen = () => fetch(`${run.base}/customerapi/channels/listen`, { headers: AUTH });
    expect(await (await listen()).json()).toBe('<a/>');
    expect(await (await listen()).json()).toBe(BIG);
  });

  it('is answered to the long poll as exactly the bytes of its JSON string', async () => {
    const run = await startSim({ longPollTimeoutMs: 500 });
    expect((await post(run.base, '/customerapi/channel/id/Durable', BIG, 'text/xml')).status).toBe(200);
    const res = await fetch(`${run.base}/customerapi/channels/listen`, { headers: AUTH });
    const expected = Buffer.from(JSON.stringify(BIG), 'utf8');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(expected.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(expected)).toBe(true);
  });

  it('refuses a document broken past its first slice, with nothing queued', async () => {
    const turns = heldTurns();
    const run = await startSim({}, { yieldTurn: turns.yieldTurn });
    const broken = `${BIG.slice(0, -'</RaceDay>'.length)}</Race>`;
    const refused = post(run.base, '/customerapi/channel/id/Durable', broken, 'text/xml');
    await waitFor(() => turns.parked > 0, 'the check of the large document to hand the event loop on');
    expect((await fetch(`${run.base}/health`)).status).toBe(200);
    turns.release();
    const res = await refused;
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'INVALID_XML',
      message: expect.stringContaining('</Race>'),
    });
    expect(run.probe.queues.totalDepth).toBe(0);
  });

  it('keeps a large UTF-8 body as the bytes it came in, and gives every reader its text', async () => {
    // About 800 KB, in one-, two- and four-byte characters: never decoded on the way in.
    const wide = `<Lopp bana="Åby">${'<Häst namn="Åskvigg 🐎" kusk="Örjan">ä</Häst>'.repeat(16_000)}</Lopp>`;
    const run = await startSim({ longPollTimeoutMs: 500 });
    const stomp = await StompUser.connect(run.ws(), TOKENS.testuser);
    const posted = await post(run.base, '/customerapi/channel/id/Durable?payloadKey=wide', wide, 'text/xml');
    expect(posted.status).toBe(200);
    const state = (await (await fetch(`${run.base}/_sim/state`)).json()) as { journal: { lastSeq: number } };
    const listened = await fetch(`${run.base}/customerapi/channels/listen`, { headers: AUTH });
    expect(await listened.json()).toBe(wide);
    const kept = await fetch(`${run.base}/_sim/messages/${state.journal.lastSeq}`);
    expect(((await kept.json()) as { payload: string }).payload).toBe(wide);
    expect((await post(run.base, '/customerapi/channel/id/NonDurable', wide, 'text/xml')).status).toBe(200);
    expect((await stomp.nextMessage()).payload).toBe(wide);
  });

  it('names where a large UTF-8 body breaks in characters, as its text counts them', async () => {
    const run = await startSim();
    const body = `<Lopp>\n${'<Häst namn="Åskvigg">ö</Häst>'.repeat(20_000)}<Å></Lopp>`;
    const res = await post(run.base, '/customerapi/channel/id/Durable', body, 'text/xml');
    expect(res.status).toBe(400);
    const column = body.length - body.lastIndexOf('\n') - '</Lopp>'.length;
    expect(((await res.json()) as { message: string }).message).toBe(
      `body is not well-formed XML: closing tag </Lopp> does not match <Å> (line 2, column ${column})`,
    );
    expect(run.probe.queues.totalDepth).toBe(0);
  });

  it('checks a small document at once, without handing the event loop on', async () => {
    const turns = heldTurns();
    const run = await startSim({}, { yieldTurn: turns.yieldTurn });
    const res = await post(run.base, '/customerapi/channel/id/NonDurable', '<a>small</a>', 'text/xml');
    expect(res.status).toBe(200);
    expect(turns.parked).toBe(0);
  });
});
