/**
 * tolerates-unknown on the stream suite: messages production might send next year, each
 * followed by a normal Data message the client must receive on the session it kept (and, with
 * --echo stdout, print: its id comes from certify's own session, as for receives-all).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { EVENT_STREAM_PATH } from '@racedata/json-sim';
import type { ScenarioContext } from '../../types';
import { UNKNOWN_CHANNELS } from '../../server/certify-simulator';
import { evidenceOf, note } from '../session/evidence';
import { awaitOpen, closesSince, openCountAt } from '../session/sessions';
import { unknownScenario, type Sent, type UnknownCase, type UnknownRun } from '../unknown/cases';
import {
  largePayload,
  NEAR_LIMIT_BYTES,
  startListWithNames,
  UNKNOWN_EVENT_FIELDS,
  winOdds,
} from '../unknown/next-year';
import { StreamWitness } from './witness';

/** After a normal message, how long a client that drops its session over the message before has to show it. */
const SETTLE_MS = 300;
/** How long certify's own session may take to see a message. */
const WITNESS_WAIT_MS = 2_000;

async function post(
  ctx: ScenarioContext,
  channel: string,
  payload: Record<string, unknown>,
  what: string,
): Promise<Sent> {
  const at = ctx.now();
  await ctx.control.postJson({
    channel,
    date: new Date(at).toISOString().slice(0, 10),
    trackId: 901,
    raceNr: 3,
    payload,
  });
  const bytes = Buffer.byteLength(JSON.stringify(payload));
  return {
    evidence: [note(at, `certify sent a Data message on ${channel}: ${what} (payload ${bytes} bytes)`)],
  };
}

const CASES: readonly UnknownCase[] = [
  {
    name: 'a Data message with fields it does not know (in the message and its payload)',
    async send(ctx) {
      const marker = `certify-fields-${randomBytes(4).toString('hex')}`;
      const undo = ctx.frontDoor.changeFrames({
        test: (text) => text.includes(marker) && text.includes('"type":"Data"'),
        change: (text) => {
          const message = JSON.parse(text) as { data?: Record<string, unknown> };
          return JSON.stringify({
            ...message,
            ...UNKNOWN_EVENT_FIELDS,
            data: { ...message.data, heatNr: 2 },
          });
        },
      });
      const payload = {
        raceNr: 3,
        secondsToParade: 240,
        certifyCase: marker,
        display: { board: 'north', lines: 2 },
      };
      const sent = await post(
        ctx,
        'TimeToDefTrot',
        payload,
        `unknown fields ${Object.keys(UNKNOWN_EVENT_FIELDS).join(', ')} in the message, heatNr in its data, more in its payload`,
      );
      return { ...sent, undo };
    },
  },
  {
    name: 'a message type it does not know',
    async send(ctx) {
      const at = ctx.now();
      const message = {
        type: 'RaceStatus',
        timestamp: new Date(at).toISOString(),
        id: randomUUID(),
        data: { channel: 'RaceStatusTrot', raceNr: 3, status: 'photo-finish' },
      };
      const sent = ctx.frontDoor.inject([EVENT_STREAM_PATH], JSON.stringify(message));
      return { evidence: [note(at, `certify sent a message of type RaceStatus on ${sent} open session(s)`)] };
    },
  },
  {
    name: 'a Data message on a channel it does not know',
    send: (ctx) =>
      post(
        ctx,
        UNKNOWN_CHANNELS.jsonTransient,
        winOdds(3),
        `${UNKNOWN_CHANNELS.jsonTransient} is in no catalog it knows`,
      ),
  },
  {
    name: 'names in non-ASCII letters',
    send: (ctx) =>
      post(
        ctx,
        'PrelDisqualifiedHorsesTrot',
        startListWithNames(3),
        'names such as Åskväder Öst, Ζέφυρος and 青空ダッシュ',
      ),
  },
  {
    name: 'a payload near the size limit',
    send: (ctx) =>
      post(
        ctx,
        'SplitTimesTrot',
        largePayload(NEAR_LIMIT_BYTES),
        `${NEAR_LIMIT_BYTES} bytes, 90 % of the largest message the simulator takes`,
      ),
  },
];

export const unknownStreamScenario = unknownScenario({
  suite: 'stream',
  cases: CASES,
  describe: (normal) => (normal.key === '' ? 'a Data message' : `Data ${normal.key}`),
  async start(ctx): Promise<UnknownRun | string> {
    const open = await awaitOpen(ctx, 'event-stream', 10_000);
    if (!open) return 'no open session to send to (see reconnect-after-close)';
    let witness: StreamWitness | undefined;
    if (ctx.echo) {
      try {
        witness = await StreamWitness.open(ctx);
      } catch (err) {
        return `could not watch the messages sent: ${(err as Error).message}`;
      }
    }
    const own = witness ? 1 : 0;
    let sentNormal = 0;
    return {
      async sendNormal() {
        const at = ctx.now();
        const channel = witness?.channel ?? 'TimeToStartTrot';
        await ctx.control.postJson({
          channel,
          date: new Date(at).toISOString().slice(0, 10),
          payload: { certify: 'tolerates-unknown', n: sentNormal },
        });
        const id = witness ? await witness.idOf(sentNormal, WITNESS_WAIT_MS) : undefined;
        sentNormal += 1;
        const what =
          id === undefined ? `a normal Data message on ${channel}` : `a normal Data message, id ${id}`;
        return { key: id ?? '', at, evidence: note(at, `certify sent ${what}`) };
      },
      async reached(normal, since) {
        await ctx.wait(SETTLE_MS);
        const closes = closesSince(ctx, 'event-stream', since);
        if (closes.length > 0)
          return { evidence: evidenceOf(closes[0]!), missed: 'found its session closed' };
        if (openCountAt(ctx, 'event-stream', normal.at) <= own) {
          return { missed: 'was sent while it had no session open' };
        }
        if (witness && normal.key === '') return { missed: "was never seen by certify's own session" };
        return {};
      },
      async finish() {
        if (!witness) return;
        const closing = ctx.now();
        await witness.close();
        // Its close is in the traffic before the next scenario counts sessions.
        await ctx.traffic.next('session-closed', (e) => e.user === ctx.user.key, {
          since: closing,
          timeoutMs: 1_000,
        });
      },
    };
  },
});
