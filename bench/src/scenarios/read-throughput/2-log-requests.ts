import { abPair } from '../../drivers/ab-pair';
import { count } from '../../harness/rows';

/**
 * What LOG_REQUESTS=true costs a page read, as users pay it: a JSON log line a request on stderr,
 * a pipe the harness drains (as a terminal, a container runtime or a CI log does), against the same
 * simulator at the same level without request lines. Target: at most 1.3x the CPU per request.
 */
const LOGS = { LOG_LEVEL: 'info', LOG_FORMAT: 'json' };

export default abPair({
  what: 'LOG_REQUESTS',
  kind: 'json',
  env: { on: { ...LOGS, LOG_REQUESTS: 'true' }, off: { ...LOGS, LOG_REQUESTS: 'false' } },
  work: {
    events: (c) => c.read.sizes[Math.max(0, c.read.sizes.length - 2)] as number,
    label: (n) =>
      `GET /customerapi/events page reads with LOG_REQUESTS=true (a JSON log line a request, to a pipe) over ${count(n)} stored events`,
  },
  cpu: { bound: 1.3, text: 'CPU per request on / off <= 1.3' },
  note: 'both simulators at LOG_LEVEL=info, LOG_FORMAT=json, their stderr a pipe the harness reads to the end',
});
