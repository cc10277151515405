import { checkedClients } from '../clients/receipts';
import { until } from '../harness/http';
import { PostLog, ReceiptLedger } from '../harness/ledger';
import { TOKEN, jsonDurableMessage, postJson } from '../harness/payloads';
import { postAtRate } from '../harness/schedule';
import { check } from '../types';

/** The one reader of the abuse run's messages: the built-in testuser, every message its own. */
export const READER = [{ key: 'testuser', token: TOKEN, channels: undefined }];

/**
 * Ordinary JSON traffic beside an abuse: durable posts at `rate` for `ms` and one reader following
 * `lastEventId`, so the journal fills with received and delivered entries and any message the
 * abuse makes the simulator lose shows.
 */
export function jsonTraffic(port: number, rate: number, ms: number) {
  const count = Math.round((rate * ms) / 1000);
  const ledger = new ReceiptLedger(new PostLog(count), READER, 1);
  const reader = checkedClients({ kind: 'json-polls', port, count: 1 }, ledger);
  const send = (seq: number, channel: string) => postJson(port, jsonDurableMessage(seq, channel));
  const posting = reader.then(() => postAtRate(ledger.posts, rate, count, send, () => 'RaceDayTrot'));
  return {
    /** Once the posting is over, lets the reader catch up for up to `drainMs`; says what was lost. */
    async lost(drainMs = 30_000) {
      await posting;
      await until(() => ledger.missing() === 0, drainMs);
      (await reader).close();
      const { posts } = ledger;
      const [lost, refused] = [ledger.missing(), posts.failed - posts.errors];
      const { odd } = ledger;
      const oddAnswers = odd.last ? `; ${odd.count} odd answers, the last: ${odd.last}` : '';
      // A network error is the client's race with a keep-alive socket the server closed, not a refusal.
      const what = `${posts.count} sent at ${rate}/s; ${refused} refused; ${posts.errors} network errors${oddAnswers}`;
      return check(
        'messages lost',
        '0',
        `${lost} of ${posts.count - posts.failed} posted (${what})`,
        !lost && !refused,
      );
    },
  };
}
