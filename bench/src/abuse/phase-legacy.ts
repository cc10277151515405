import { seededRandom } from '../../../test-support/seeded-random';
import { checkedClients, legacyTag } from '../clients/receipts';
import { PostLog, ReceiptLedger } from '../harness/ledger';
import { postLegacy } from '../harness/payloads';
import { post, until } from '../harness/http';
import { inParallel } from '../harness/schedule';
import { check } from '../types';
import type { Phase } from './config';
import { READER } from './phase-control';

/**
 * 1. Pollers that hang up 0-20 ms after sending their listen, each on its own connection, over
 * and over, beside a few honest keep-alive pollers, while Durable messages arrive in bursts: the
 * cross-process storm rerun after every change to the delivery path
 * (`npm run abuse -- --only=listen-storm --messages=2000 --pollers=100 --honest=3 --seed=N`).
 * A message counts once a poller read its whole 200.
 */
export const listenStorm: Phase = {
  id: 1,
  name: 'listen-storm',
  title: 'hang-up storm on the legacy listen',
  simulators: ['legacy'],
  env: { LONG_POLL_TIMEOUT_MS: '2000' },
  async run(sims, config) {
    const c = config.listenStorm;
    const port = sims.legacy?.port as number;
    const ledger = new ReceiptLedger(new PostLog(c.messages), READER, 1);
    const random = seededRandom(c.seed);
    const pollers = (count: number, hangUpAfter?: () => number) =>
      checkedClients({ kind: 'legacy-listens', port, count, hangUpAfter }, ledger);
    const rude = await pollers(c.hangUpPollers, () => random() * c.maxHangUpMs);
    const honest = await pollers(c.honestPollers);
    const { posts } = ledger;
    const tag = legacyTag('Durable', 'id');
    for (let first = 1; first <= c.messages; first += c.burst) {
      const burst = Array.from({ length: Math.min(c.burst, c.messages - first + 1) }, () => posts.next('id'));
      const post = (seq: number) => postLegacy(port, 'Durable', seq, 'id', tag).catch(() => ({ status: 0 }));
      await Promise.all(burst.map(async (seq) => posts.settle(seq, (await post(seq)).status)));
    }
    rude.close();
    await until(() => ledger.missing() === 0, c.drainMs);
    honest.close();
    const [lost, { duplicated, corrupt }] = [ledger.missing(), ledger.counts];
    const odd = corrupt + ledger.odd.count;
    const accepted = `${lost} of ${posts.count - posts.failed} accepted (${posts.failed} posts refused; ${rude.polls.hangUps} hang-ups)`;
    return {
      checks: [
        check('messages lost', '0', accepted, lost === 0 && posts.failed === 0),
        check('messages duplicated', '0', String(duplicated), duplicated === 0),
      ],
      rssBudget: { mb: 1, why: `${c.messages} queued messages of ~400 B, far under LEGACY_QUEUE_MAX_BYTES` },
      notes: odd > 0 ? [`${odd} answers that were not a posted message`] : [],
    };
  },
};

/** The byte cap the phase runs the legacy simulator with: well under what the flood sends. */
const QUEUE_MAX_MB = 64;
/** MAX_INFLIGHT_BODY_BYTES's default: what the simulator holds of bodies still arriving. */
const INFLIGHT_MAX_MB = 64;

/**
 * 8. Durable posts of just under MAX_BODY_BYTES (1 MiB), each different so nothing is shared,
 * from a few clients at once: what LEGACY_QUEUE_MAX_BYTES holds RSS to.
 */
export const legacyFlood: Phase = {
  id: 8,
  name: 'legacy-flood',
  title: 'a flood of 1 MB legacy posts',
  simulators: ['legacy'],
  env: { LEGACY_QUEUE_MAX_BYTES: String(QUEUE_MAX_MB * 1024 * 1024) },
  async run(sims, config) {
    const { posts, concurrency } = config.legacyFlood;
    const port = sims.legacy?.port as number;
    const filler = 'x'.repeat(1024 * 1024 - 64);
    const statuses: Record<number, number> = {};
    await inParallel(concurrency, posts, async (n) => {
      const path = `/customerapi/channel/id/Durable?payloadKey=flood-${n}`;
      const { status } = await post(port, path, `<m n="${n}">${filler}</m>`, 'text/xml').catch(() => ({
        status: 0,
      }));
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
    const accepted = statuses[200] ?? 0;
    const answers = `${accepted} (answers: ${JSON.stringify(statuses)})`;
    return {
      checks: [check('posts accepted', `${posts}`, answers, accepted === posts)],
      rssBudget: {
        mb: QUEUE_MAX_MB + INFLIGHT_MAX_MB,
        why: `LEGACY_QUEUE_MAX_BYTES=${QUEUE_MAX_MB} MiB queued and MAX_INFLIGHT_BODY_BYTES (${INFLIGHT_MAX_MB} MiB by default) of bodies being received`,
      },
    };
  },
};
