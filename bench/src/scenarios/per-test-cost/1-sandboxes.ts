import { timed, timedRequests, health } from '../../drivers/timed';
import { httpRequest } from '../../harness/http';

export default timedRequests({
  label: (kind, n) => `${kind}: POST /_sim/sandboxes, p50 of ${n}`,
  baseline: 'GET /health on the same server',
  async repeat(port) {
    const baseline = (await health(port)).ms;
    const made = await timed(() => httpRequest({ port, method: 'POST', path: '/_sim/sandboxes' }));
    const { id } = JSON.parse(made.body.toString('utf8')) as { id: string };
    // Deleted before the next, so SANDBOX_MAX never bites.
    await timed(() => httpRequest({ port, method: 'DELETE', path: `/_sim/sandboxes/${id}` }));
    return { ours: made.ms, baseline };
  },
  target: { text: '< 5 ms', ok: (p50) => p50 < 5 },
  method:
    'POST /_sim/sandboxes creates a sandbox (deleted again, untimed, before the next); the baseline of this and of the reset is GET /health on the same server, timed the same way in each repetition: the round trip alone.',
});
