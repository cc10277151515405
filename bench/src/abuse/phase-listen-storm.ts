import { check } from '../types';
import http from 'node:http';
import { seededRandom } from '../../../test-support/seeded-random';
import { requestOnce, sleep } from '../harness/http';
import { postLegacy } from '../harness/http';
import { seqOfXml, soakLegacyMessage } from '../soak/messages';
import { AUTH, LISTEN_PATH, type Phase } from './types';

/** Receipts by message sequence number: a message counts only once a poller read its whole 200. */
class Receipts {
  readonly bySeq = new Map<number, number>();
  odd = 0;

  take(body: Buffer): void {
    try {
      const seq = seqOfXml(JSON.parse(body.toString('utf8')) as string);
      if (Number.isInteger(seq)) this.bySeq.set(seq, (this.bySeq.get(seq) ?? 0) + 1);
      else this.odd++;
    } catch {
      this.odd++;
    }
  }

  get duplicated(): number {
    let extra = 0;
    for (const n of this.bySeq.values()) extra += n - 1;
    return extra;
  }
}

/** One listen on its own connection (or `agent`'s); hangs up after `hangUpMs` unless the answer is in whole. */
function listenOnce(port: number, receipts: Receipts, hangUpMs: number | undefined, agent?: http.Agent) {
  return requestOnce(
    {
      port,
      path: LISTEN_PATH,
      headers: AUTH,
      ...(agent && { agent }),
      ...(hangUpMs !== undefined && { hangUpMs }),
    },
    (status, body) => status === 200 && receipts.take(body),
  );
}

/**
 * 1. Pollers that hang up 0-20 ms after sending their listen, each on its own connection, over
 * and over, beside a few honest keep-alive pollers, while Durable messages arrive in bursts: the
 * cross-process storm rerun after every change to the delivery path
 * (`npm run abuse -- --only=listen-storm --messages=2000 --pollers=100 --honest=3 --seed=N`).
 */
export const listenStorm: Phase = {
  id: 1,
  name: 'listen-storm',
  title: 'hang-up storm on the legacy listen',
  simulators: ['legacy'],
  env: { LONG_POLL_TIMEOUT_MS: '2000' },
  async run(sims, config) {
    const c = config.listenStorm;
    const { port } = sims.legacy!.sim;
    const receipts = new Receipts();
    const random = seededRandom(c.seed);
    let storming = true;
    let polling = true;
    let hangUps = 0;
    const stormers = Array.from({ length: c.hangUpPollers }, async () => {
      while (storming) {
        hangUps++;
        await listenOnce(port, receipts, random() * c.maxHangUpMs);
      }
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: c.honestPollers });
    const honest = Array.from({ length: c.honestPollers }, async () => {
      while (polling) await listenOnce(port, receipts, undefined, agent);
    });
    let accepted = 0;
    let refused = 0;
    for (let first = 1; first <= c.messages; first += c.burst) {
      const seqs = Array.from({ length: Math.min(c.burst, c.messages - first + 1) }, (_, i) => first + i);
      const answers = await Promise.all(
        seqs.map((seq) =>
          postLegacy(port, 'Durable', soakLegacyMessage('Durable', 'id', seq)).catch(() => ({ status: 0 })),
        ),
      );
      for (const a of answers) {
        if (a.status >= 200 && a.status < 300) accepted++;
        else refused++;
      }
    }
    storming = false;
    await Promise.all(stormers);
    const drainStart = Date.now();
    while (receipts.bySeq.size < accepted && Date.now() - drainStart < c.drainMs) await sleep(100);
    polling = false;
    agent.destroy();
    await Promise.all(honest);
    const lost = accepted - receipts.bySeq.size;
    return {
      checks: [
        check(
          'messages lost',
          '0',
          `${lost} of ${accepted} accepted (${refused} posts refused; ${hangUps} hang-ups)`,
          lost === 0 && refused === 0,
        ),
        check('messages duplicated', '0', String(receipts.duplicated), receipts.duplicated === 0),
      ],
      rssBudget: { mb: 1, why: `${c.messages} queued messages of ~400 B, far under LEGACY_QUEUE_MAX_BYTES` },
      notes: receipts.odd > 0 ? [`${receipts.odd} 200 answers that were not a posted message`] : [],
    };
  },
};
