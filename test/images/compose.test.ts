import { TOKENS } from '@racedata/test-support';
import { describeImages } from './image-env';
import { bearer, call } from './image-client';

const WITHIN_MS = 15_000;

/**
 * Long polls until one answer has `text`: each read is held until the replay sends more, so this
 * waits on the replay itself, not on a timer; bounded by WITHIN_MS in all.
 */
async function readUntil(text: string, read: (left: number) => Promise<string>): Promise<void> {
  const deadline = Date.now() + WITHIN_MS;
  const answers: string[] = [];
  while (Date.now() < deadline) {
    const answer = await read(deadline - Date.now());
    if (answer.includes(text)) return;
    answers.push(answer.slice(0, 100));
  }
  throw new Error(
    `no answer had ${text} within ${WITHIN_MS} ms; got ${JSON.stringify(answers).slice(0, 300)}`,
  );
}

// docker/compose.yaml's replay services reach the simulators by service name
// (REPLAY_TARGET=http://json:3000); each simulator then holds recorded race data.
describeImages('docker/compose.yaml', ['composeJson', 'composeLegacy'], (urls) => {
  test('replay-json fed recorded events into the json service', async () => {
    let lastEventId = 0;
    await readUntil('RaceDay', async (left) => {
      const page = await call(
        `${urls.composeJson}/customerapi/events?lastEventId=${lastEventId}&limit=10000`,
        { headers: bearer(TOKENS.alluser) },
        left,
      );
      expect([200, 204]).toContain(page.status);
      if (page.status === 200) {
        const events = (JSON.parse(page.text) as { data: { events: { eventId: number }[] } }).data.events;
        lastEventId = events.at(-1)?.eventId ?? lastEventId;
      }
      return page.text;
    });
  });

  test('replay-legacy fed recorded XML into the legacy service', async () => {
    await readUntil('<RaceDay ', async (left) => {
      const read = await call(
        `${urls.composeLegacy}/customerapi/channels/listen`,
        { headers: bearer() },
        left,
      );
      expect([200, 204]).toContain(read.status);
      return read.text;
    });
  });
});
