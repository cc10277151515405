import { timed, timedRequests } from '../../drivers/timed';
import { httpRequest } from '../../harness/http';
import { POST_NAME, postMessage } from '../../harness/payloads';

export default timedRequests({
  label: (kind, n) => `${kind}: first ${POST_NAME[kind]} after POST /_sim/reset, p50 of ${n}`,
  baseline: 'the same post again, the second after the reset',
  async repeat(port, kind, i) {
    await timed(() => httpRequest({ port, method: 'POST', path: '/_sim/reset' }));
    const first = await timed(() => postMessage(kind, port, 20_000 + 2 * i));
    const second = await timed(() => postMessage(kind, port, 20_001 + 2 * i));
    return { ours: first.ms, baseline: second.ms };
  },
  // From the first run (2026-11-28, shared machine): 0.98-1.00x the second post at p50.
  target: { text: '<= 1.25x the second', ok: (_p50, ratio) => ratio <= 1.25 },
  method:
    "The first request of a test after the reset (a durable message post, timed), against the same post right after it: what a reset leaves the next test to pay (caches rebuilt, code deoptimised) beyond a request's own cost.",
});
