/**
 * tolerates-unknown on the stomp suite: MESSAGE frames production might send next year, each
 * followed by a normal NonDurable message that must still reach the client's session (the
 * journal shows it delivered) and, with --echo stdout, be printed by its payloadKey.
 */
import type { ScenarioContext } from '../../types';
import { UNKNOWN_CHANNELS } from '../../server/certify-simulator';
import { evidenceOf, note } from '../session/evidence';
import { awaitOpen, closesSince } from '../session/sessions';
import { unknownScenario, type Sent, type UnknownCase } from '../unknown/cases';
import {
  largeXml,
  NEAR_LIMIT_BYTES,
  raceDayWithUnknownParts,
  startListXmlWithNames,
  UNKNOWN_EVENT_FIELDS,
  unknownDocument,
} from '../unknown/next-year';
import { newPayloadKey, PROBE_CHANNEL, probeXml, StompDeliveries } from './probe';

/** Headers no STOMP client of this interface has seen on a MESSAGE. */
const UNKNOWN_HEADERS = ['race-data-version:2.1', 'x-race-priority:high'];
/** How long a normal message may take to show in the journal as delivered. */
const DELIVERED_WITHIN_MS = 3_000;
const READ_EVERY_MS = 200;

async function send(
  ctx: ScenarioContext,
  channel: string,
  xml: string,
  what: string,
  key = newPayloadKey('unknown'),
): Promise<Sent> {
  const at = ctx.now();
  await ctx.control.inject(channel, false, xml, key);
  return {
    evidence: [
      note(
        at,
        `certify sent NonDurable ${channel} payloadKey=${key}: ${what} (${Buffer.byteLength(xml)} bytes of XML)`,
      ),
    ],
  };
}

/** The MESSAGE frame with unknown headers, and unknown fields in its JSON body. */
export function withUnknownParts(frame: string): string {
  const split = frame.indexOf('\n\n');
  if (split < 0) return frame;
  const body = frame.slice(split + 2).replace(/\0$/, '');
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return frame;
  }
  const changed = JSON.stringify({ ...json, ...UNKNOWN_EVENT_FIELDS });
  const lines = frame
    .slice(0, split)
    .split('\n')
    .filter((line) => !line.startsWith('content-length:'));
  lines.splice(1, 0, ...UNKNOWN_HEADERS);
  lines.push(`content-length:${Buffer.byteLength(changed)}`);
  return `${lines.join('\n')}\n\n${changed}\0`;
}

const CASES: readonly UnknownCase[] = [
  {
    name: 'a MESSAGE with headers and fields it does not know, holding XML with elements and attributes it does not know',
    async send(ctx) {
      const key = newPayloadKey('unknown-fields');
      const undo = ctx.frontDoor.changeFrames({
        test: (text) => text.startsWith('MESSAGE\n') && text.includes(key),
        change: withUnknownParts,
      });
      const sent = await send(
        ctx,
        PROBE_CHANNEL,
        raceDayWithUnknownParts(key),
        `headers ${UNKNOWN_HEADERS.map((h) => h.split(':')[0]).join(', ')} and body fields ${Object.keys(UNKNOWN_EVENT_FIELDS).join(', ')} added; unknown elements and attributes in its XML`,
        key,
      );
      return { ...sent, undo };
    },
  },
  {
    name: 'a MESSAGE on a channel it does not know',
    send: (ctx) =>
      send(
        ctx,
        UNKNOWN_CHANNELS.legacy,
        unknownDocument(newPayloadKey('document')),
        `${UNKNOWN_CHANNELS.legacy} is in no catalog it knows`,
      ),
  },
  {
    name: 'names in non-ASCII letters',
    send: (ctx) =>
      send(
        ctx,
        PROBE_CHANNEL,
        startListXmlWithNames(newPayloadKey('names')),
        'names such as Åskväder Öst and Ζέφυρος, some as character references',
      ),
  },
  {
    name: 'a payload near the size limit',
    send: (ctx) =>
      send(
        ctx,
        PROBE_CHANNEL,
        largeXml(NEAR_LIMIT_BYTES, newPayloadKey('large')),
        `${NEAR_LIMIT_BYTES} bytes, 90 % of the largest message the simulator takes`,
      ),
  },
];

export const unknownStompScenario = unknownScenario({
  suite: 'stomp',
  cases: CASES,
  describe: (normal) => `payloadKey ${normal.key}`,
  async start(ctx) {
    const open = await awaitOpen(ctx, 'stomp', 10_000);
    if (!open) return 'no STOMP session to send to (see connects-with-bearer)';
    const deliveries = new StompDeliveries(ctx);
    return {
      async sendNormal(n) {
        const at = ctx.now();
        const key = newPayloadKey(`normal-${n + 1}`);
        await ctx.control.inject(PROBE_CHANNEL, false, probeXml('tolerates-unknown'), key);
        return {
          key,
          at,
          evidence: note(at, `certify sent a normal NonDurable ${PROBE_CHANNEL} payloadKey=${key}`),
        };
      },
      async reached(normal, since) {
        const deadline = normal.at + DELIVERED_WITHIN_MS;
        for (;;) {
          const seen = await deliveries.read();
          const at = seen.get(normal.key);
          const closes = closesSince(ctx, 'stomp', since);
          if (closes.length > 0)
            return { evidence: evidenceOf(closes[0]!), missed: 'found its session closed' };
          if (at !== undefined) return { evidence: note(at, `journal: ${normal.key} delivered over stomp`) };
          if (ctx.now() >= deadline || !(await ctx.wait(READ_EVERY_MS))) break;
        }
        return { missed: `never reached it: its session is no longer subscribed` };
      },
      finish: async () => undefined,
    };
  },
});
