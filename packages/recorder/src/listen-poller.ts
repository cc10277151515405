import { createHash } from 'node:crypto';
import { retryAfterMs } from './backoff';
import { failureReason, requestText } from './http-client';
import { pollLimits, type TransportContext } from './transport-context';
import { parseListenBody } from './upstream-messages';
import { PollFaults } from './upstream-faults';
import { StoppedError } from './upstream-session';
import { isRecorderError } from './errors';

function xmlSha(xml: string): string {
  return createHash('sha256').update(xml).digest('hex').slice(0, 32);
}

/**
 * GET /customerapi/channels/listen (interface 4.2): one XML document per answer, the next request
 * at once. The upstream keeps each user's queue and takes a message off it only once the client
 * has shown it read the answer (its next request on the connection); when the connection broke
 * first, the same message comes again. So an answer identical to the last one written, right
 * after a failure or a restart, is that message again and is skipped; an identical answer in an
 * unbroken run is a message of its own.
 *
 * The answer names no channel and no payloadKey, so its line has channel `id` (every user, the
 * vendor's injection example) and an empty payloadKey: a replay delivers it to every user.
 *
 * Everything but a message or a held 204 is an upstream fault waited out with back-off
 * (upstream-faults.ts): an error status, a redirect, an answer that holds no XML, a 401 right
 * after authenticating.
 */
export class ListenPoller {
  private readonly faults: PollFaults;
  /** A 401 since the last message: another one waits before authenticating again. */
  private refusedSinceProgress = false;
  /** The XML of the last line written, while the run since it is unbroken or not. */
  private last: { sha: string; broken: boolean } | undefined;

  constructor(
    private readonly ctx: TransportContext,
    resumeSha: string | undefined,
  ) {
    if (resumeSha !== undefined) this.last = { sha: resumeSha, broken: true };
    this.faults = new PollFaults(ctx, 'listen');
  }

  async run(): Promise<void> {
    const { signal } = this.ctx;
    while (!signal.aborted) {
      try {
        await this.listenOnce();
      } catch (err) {
        if (err instanceof StoppedError || signal.aborted) return;
        if (isRecorderError(err)) throw err;
        await this.broken(failureReason(err), {});
      }
    }
  }

  /** The connection broke or the upstream failed: the next identical answer may be the same message. */
  private broken(cause: string, fields: Record<string, unknown>, retryAfter?: number): Promise<void> {
    if (this.last) this.last.broken = true;
    return this.faults.fault(cause, fields, retryAfter);
  }

  private async listenOnce(): Promise<void> {
    const { session, fetch, clock, sink } = this.ctx;
    const token = await session.token();
    const answer = await requestText(
      fetch,
      `${session.base}/customerapi/channels/listen`,
      { headers: { authorization: `Bearer ${token}` } },
      pollLimits(this.ctx),
    );
    if (answer.status === 204) {
      await this.faults.empty(answer.ms);
      return;
    }
    if (answer.status === 200) {
      const xml = parseListenBody(answer.body);
      if (!xml.ok) {
        sink.malformed('listen', xml.reason, false);
        // The answer was read whole, so the upstream may take the message off its queue: no break.
        await this.faults.fault('malformed listen answer', { detail: xml.reason });
        return;
      }
      this.faults.progressed();
      this.refusedSinceProgress = false;
      const sha = xmlSha(xml.value);
      if (this.last?.broken && this.last.sha === sha) {
        sink.counts.duplicates++;
        this.last.broken = false;
        this.ctx.logger.info({ transport: 'listen' }, 'skipped a listen message the upstream sent again');
        return;
      }
      const line = {
        at: sink.arrival(),
        delivery: 'durable' as const,
        channel: 'id',
        payloadKey: '',
        xml: xml.value,
      };
      if (sink.legacy('listen', line, { xmlSha: sha, source: session.base }))
        this.last = { sha, broken: false };
      return;
    }
    if (answer.status === 401) {
      this.ctx.stats.reauthentications++;
      if (this.last) this.last.broken = true;
      session.refused(token);
      if (this.refusedSinceProgress)
        await this.broken('HTTP 401 again right after authenticating', { status: 401 });
      this.refusedSinceProgress = true;
      return;
    }
    const retryAfter = retryAfterMs(answer.headers.get('retry-after'), clock.now());
    await this.broken(`HTTP ${answer.status}`, { status: answer.status }, retryAfter);
  }
}
