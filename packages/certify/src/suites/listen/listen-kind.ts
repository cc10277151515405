/**
 * The legacy long poll, GET /customerapi/channels/listen, as the shared long-poll scenarios see
 * it. An answer carries one XML document and no id, so which message a poll delivered is read
 * from the journal (by the payloadKey certify injected it with).
 */
import type { ScenarioContext } from '../../types';
import type { LongPollKind, Published } from '../long-poll/poll-kind';
import { clientRequests, nextClientRequest, noteEvidence, type RequestEvent } from '../long-poll/requests';

export const LISTEN_PATH = '/customerapi/channels/listen';

/** `id` is the legacy injection's "every user" channel (interface 4.6). */
const CHANNEL = 'id';

export function isListenPoll(event: RequestEvent): boolean {
  return event.method === 'GET' && /^\/customerapi\/channels\/listen\/?$/i.test(event.path);
}

let published = 0;

async function injectMessage(ctx: ScenarioContext): Promise<Published> {
  const at = ctx.now();
  published += 1;
  const payloadKey = `certify-${at}-${published}`;
  await ctx.control.inject(CHANNEL, true, `<CertifyMessage n="${published}"/>`, payloadKey);
  return { at, payloadKey, label: `message ${payloadKey}` };
}

/** The listen deliveries (200) in the order the journal saw them, by payloadKey. */
async function deliveredKeys(ctx: ScenarioContext): Promise<string[]> {
  const entries = await ctx.control.journal('kind=delivered&transport=listen&limit=1000');
  return entries.filter((entry) => entry['status'] === 200).map((entry) => String(entry['payloadKey']));
}

/**
 * Waits for listen answers that ended after the message was injected until the journal shows it
 * delivered; the legacy queue answers in order, so the n-th delivery is the n-th 200.
 */
async function awaitListenDelivery(
  ctx: ScenarioContext,
  message: Published,
  timeoutMs: number,
): Promise<RequestEvent | undefined> {
  const deadline = ctx.now() + timeoutMs;
  const seen = new Set<RequestEvent>();
  for (;;) {
    const keys = await deliveredKeys(ctx);
    const index = keys.indexOf(message.payloadKey ?? '');
    if (index >= 0) {
      const answers = clientRequests(ctx).filter((event) => isListenPoll(event) && event.status === 200);
      answers.sort((a, b) => a.endedAt - b.endedAt);
      return answers[index] ?? answers[answers.length - 1];
    }
    const left = deadline - ctx.now();
    if (left <= 0) return undefined;
    const poll = await nextClientRequest(
      ctx,
      (event) =>
        isListenPoll(event) && event.status === 200 && event.endedAt >= message.at && !seen.has(event),
      left,
    );
    if (!poll) return undefined;
    seen.add(poll);
  }
}

export const listenKind: LongPollKind = {
  suite: 'listen',
  routeName: `GET ${LISTEN_PATH}`,
  faultTransport: 'listen',
  isPoll: isListenPoll,
  publish: injectMessage,
  awaitDelivery: awaitListenDelivery,
  // The server keeps each user's queue and takes a message off only once it was answered.
  resumeProblem: () => undefined,
  publishedEvidence: (message) =>
    noteEvidence(message.at, `certify injected ${message.label} (POST /customerapi/channel/id/Durable)`),
};
