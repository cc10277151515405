import { latency } from '../../drivers/latency';

// One legacy queue per user: each client a user with a held listen, so one Durable post to `id` reaches them all.
const label = 'legacy: POST Durable -> held GET /customerapi/channels/listen';
export default latency({
  label,
  kind: 'legacy',
  ours: 'legacy-listens',
  bare: 'bare-polls',
  userPerClient: true,
});
