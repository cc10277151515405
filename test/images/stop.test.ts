import { writeFileSync } from 'node:fs';
import { closeAll, eventually } from '@racedata/test-support';
import { JsonControlClient, LegacyControlClient, type ControlClient } from 'racedata-sim';
import { describeImages } from './image-env';
import { bearer, call, eventStream, stompSession } from './image-client';

afterEach(closeAll);

// How long after the harness starts stopping the containers every connection must have ended;
// test-images.sh itself checks that each stop takes under 2 s.
const STOP_BOUND_MS = 15_000;

/** Resolves once testuser's long poll is held, so the stop finds it there. */
async function pollHeld(control: ControlClient): Promise<void> {
  await eventually(async () => (await control.state()).users.testuser?.heldPolls === 1, 'the held poll');
}

describeImages(
  'a container stopped with connections open (SIGTERM)',
  ['json', 'legacy', 'stopReadyFile'],
  (urls) => {
    test(
      'answers its held long poll 204 and closes its WebSockets',
      async () => {
        let ready = 'failed\n';
        try {
          const jsonPoll = call(
            `${urls.json}/customerapi/events?lastEventId=999999999`,
            { headers: bearer() },
            STOP_BOUND_MS + 10_000,
          );
          const legacyPoll = call(
            `${urls.legacy}/customerapi/channels/listen`,
            { headers: bearer() },
            25_000,
          );
          // The token alone, without "Bearer ": as some clients send it.
          const stream = await eventStream(urls.json, bearer().authorization.slice('Bearer '.length));
          const stomp = await stompSession(urls.legacy);
          await pollHeld(new JsonControlClient(urls.json));
          await pollHeld(new LegacyControlClient(urls.legacy));
          ready = 'ready\n';
          writeFileSync(urls.stopReadyFile, ready);

          const [json, legacy, streamCode, stompCode] = await Promise.all([
            jsonPoll,
            legacyPoll,
            stream.closed,
            stomp.closes.next(() => true, 'the STOMP WebSocket closing', STOP_BOUND_MS),
          ]);
          expect({ json: json.status, legacy: legacy.status }).toEqual({ json: 204, legacy: 204 });
          // Any close code: what matters is that the socket ends rather than hangs.
          expect(typeof streamCode).toBe('number');
          expect(typeof stompCode).toBe('number');
        } finally {
          if (ready !== 'ready\n') writeFileSync(urls.stopReadyFile, ready);
        }
      },
      STOP_BOUND_MS + 20_000,
    );
  },
);
