/**
 * tolerates-unknown on the listen suite: XML documents production might send next year, each
 * followed by a normal one the client must take off its queue (and, with --echo stdout, print:
 * the normal document carries its payloadKey as an attribute, since a listen answer holds the
 * XML alone).
 */
import { randomBytes } from 'node:crypto';
import type { Evidence, ScenarioContext } from '../../types';
import { UNKNOWN_CHANNELS } from '../../server/certify-simulator';
import { LONG_POLL_LIMITS as L } from '../long-poll/limits';
import { requestEvidence } from '../long-poll/requests';
import { unknownScenario, type Sent, type UnknownCase } from '../unknown/cases';
import {
  largeXml,
  NEAR_LIMIT_BYTES,
  raceDayWithUnknownParts,
  startListXmlWithNames,
  unknownDocument,
} from '../unknown/next-year';
import { listenKind } from './listen-kind';

function note(at: number, what: string): Evidence {
  return { at: new Date(at).toISOString(), what };
}

function marker(label: string): string {
  return `certify-${label}-${randomBytes(4).toString('hex')}`;
}

async function inject(ctx: ScenarioContext, channel: string, xml: string, what: string): Promise<Sent> {
  const at = ctx.now();
  const key = marker('unknown');
  await ctx.control.inject(channel, true, xml, key);
  const bytes = Buffer.byteLength(xml);
  return { evidence: [note(at, `certify queued ${what} (${bytes} bytes, payloadKey ${key})`)] };
}

const CASES: readonly UnknownCase[] = [
  {
    name: 'XML with elements, attributes and a namespace it does not know',
    send: (ctx) =>
      inject(
        ctx,
        'id',
        raceDayWithUnknownParts(marker('xml')),
        'a RaceDay document with unknown elements (Broadcast, Sponsors, rd2:Weather) and attributes',
      ),
  },
  {
    name: 'a document type from a channel it does not know',
    send: (ctx) =>
      inject(
        ctx,
        UNKNOWN_CHANNELS.legacy,
        unknownDocument(marker('document')),
        `a WinOdds document on ${UNKNOWN_CHANNELS.legacy}, a channel of no catalog it knows`,
      ),
  },
  {
    name: 'names in non-ASCII letters',
    send: (ctx) =>
      inject(
        ctx,
        'id',
        startListXmlWithNames(marker('names')),
        'a start list with names such as Åskväder Öst and Ζέφυρος, and some as character references',
      ),
  },
  {
    name: 'a document near the size limit',
    send: (ctx) =>
      inject(
        ctx,
        'id',
        largeXml(NEAR_LIMIT_BYTES, marker('large')),
        `a RaceDay document of ${NEAR_LIMIT_BYTES} bytes, 90 % of the largest message the simulator takes`,
      ),
  },
];

export const unknownListenScenario = unknownScenario({
  suite: 'listen',
  cases: CASES,
  describe: (normal) => `payloadKey ${normal.key}`,
  async start(ctx) {
    return {
      async sendNormal() {
        const at = ctx.now();
        const key = marker('normal');
        await ctx.control.inject('id', true, `<CertifyMessage payloadKey="${key}"/>`, key);
        return { key, at, evidence: note(at, `certify queued a normal message, payloadKey ${key}`) };
      },
      async reached(normal) {
        const answer = await listenKind.awaitDelivery(
          ctx,
          { at: normal.at, payloadKey: normal.key, label: `message ${normal.key}` },
          L.deliveryTimeoutMs,
        );
        if (answer) return { evidence: requestEvidence(answer, `delivered ${normal.key}`) };
        return {
          missed: `was not taken off its queue within ${L.deliveryTimeoutMs / 1000} s: it stopped listening`,
        };
      },
      finish: async () => undefined,
    };
  },
});
