import { health, timed, timedRequests } from '../../drivers/timed';
import { httpRequest } from '../../harness/http';
import { POST_NAME, postMessage } from '../../harness/payloads';

export default timedRequests({
  label: (kind, n) => `${kind}: POST /_sim/reset after one ${POST_NAME[kind]}, p50 of ${n}`,
  baseline: 'GET /health on the same server',
  async repeat(port, kind, i) {
    const baseline = (await health(port)).ms;
    // Something to clear, as a test leaves behind.
    await timed(() => postMessage(kind, port, 10_000 + i));
    const reset = await timed(() => httpRequest({ port, method: 'POST', path: '/_sim/reset' }));
    return { ours: reset.ms, baseline };
  },
  // From the first run (2026-11-28, shared machine): 1.07-1.10x a /health round trip at p50.
  target: { text: '<= 1.5x GET /health', ok: (_p50, ratio) => ratio <= 1.5 },
  method:
    'POST /_sim/reset, what a suite calls between tests, each after one durable message posted (untimed) so there is something to clear.',
});
