import { connect, type Socket } from 'node:net';
import { TOKENS } from '@racedata/test-support';
import { EVENTS_PATH, closeAll, postRaw, startSim, waitFor } from './helpers';

// Page bodies are written from a pool of reused buffers. A buffer goes back to the pool only
// once every byte of its response was handed to the kernel: a client that reads slowly must
// still get each page exactly as it was when answered, however many pages were served since.

afterEach(closeAll);
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

const EVENTS = 3000;
const PIPELINED = 400;

const line = (i: number) =>
  JSON.stringify({
    channel: i % 2 === 0 ? 'RaceDayTrot' : 'StartListTrot',
    date: '2026-03-14',
    trackId: 5,
    raceNr: (i % 10) + 1,
    payload: { i, horse: `Horse ${i}`, note: 'x'.repeat(300) },
  });

/** Collects the bodies of HTTP/1.1 responses (each with a Content-Length) as bytes arrive. */
class ResponseReader {
  readonly bodies: string[] = [];
  private pending = Buffer.alloc(0);

  push(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      const headEnd = this.pending.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = this.pending.toString('latin1', 0, headEnd);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
      const end = headEnd + 4 + length;
      if (end > this.pending.length) return;
      this.bodies.push(this.pending.toString('utf8', headEnd + 4, end));
      this.pending = this.pending.subarray(end);
    }
  }
}

describe('page bodies from reused buffers', () => {
  it('a client that pipelines hundreds of page reads and reads nothing meanwhile still gets every page intact', async () => {
    const s = await startSim();
    const ndjson = Array.from({ length: EVENTS }, (_, i) => line(i)).join('\n');
    expect((await postRaw(s.base, '/_sim/events', ndjson, null)).status).toBe(201);

    let serverSide: Socket | undefined;
    s.sim.server.once('connection', (socket: Socket) => (serverSide = socket));
    // No 'data' listener: the client reads nothing until told, so the server's writes back up.
    const slow = connect(s.address.port, '127.0.0.1');
    sockets.push(slow);
    await new Promise((resolve) => slow.once('connect', resolve));
    const afterIds = Array.from({ length: PIPELINED }, (_, k) => (k * 7) % (EVENTS - 100));
    slow.write(
      afterIds
        .map(
          (after) =>
            `GET ${EVENTS_PATH}?lastEventId=${after}&limit=100 HTTP/1.1\r\nHost: x\r\n` +
            `Authorization: Bearer ${TOKENS.testuser}\r\n\r\n`,
        )
        .join(''),
    );
    // Answers are waiting in Node, past what the kernel took: their buffers are not free yet.
    await waitFor(() => (serverSide?.writableLength ?? 0) > 0, 'responses backed up behind the slow client');

    // Meanwhile other clients read many pages, taking buffers from the pool again and again.
    for (let k = 0; k < 200; k++) {
      const res = await fetch(`${s.base}${EVENTS_PATH}?lastEventId=${(k * 13) % 2000}&limit=100`, {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }

    const reader = new ResponseReader();
    await new Promise<void>((resolve) => {
      slow.on('data', (chunk: Buffer) => {
        reader.push(chunk);
        if (reader.bodies.length === PIPELINED) resolve();
      });
    });
    const pages = reader.bodies.map(
      (text) => JSON.parse(text) as { data: { events: Array<{ eventId: number; payload: { i: number } }> } },
    );
    pages.forEach((page, k) => {
      const after = afterIds[k] as number;
      const ids = Array.from({ length: 100 }, (_, j) => after + 1 + j);
      expect(page.data.events.map((e) => e.eventId)).toEqual(ids);
      expect(page.data.events.map((e) => e.payload.i)).toEqual(ids.map((id) => id - 1));
    });
  });
});
