import { STOMP_PATHS } from '@racedata/legacy-sim';
import type { CheckResult, Scenario, ScenarioContext, TrafficOf } from '../../types';
import { describeHeartBeats } from '../../evidence';
import { evidenceOf, note, secs, verdict } from '../session/evidence';
import { awaitOpen, nextClose } from '../session/sessions';
import { recover, silenceSessions } from '../session/silence';
import { STOMP_CHECKS } from './checks';
import { PROBE_CHANNEL, probeSubscription } from './probe';
import { PROBE_MARGIN_MS } from './reconnect';

/** Server heart-beat intervals, and the margin after them, within which the client must be back. */
export const SILENT_INTERVALS = 2;
export const SILENT_MARGIN_MS = 5_000;
/** Beyond the simulator's CONNECT deadline, for its line to reach certify. */
const CONNECT_SLACK_MS = 1_000;

/**
 * detects-silent-session: the client's STOMP session is silenced at certify's front door (no
 * heart-beat, no MESSAGE, the connection open). A client that asked for the server's heart-beats
 * must drop the session and be subscribed again within 2 of the negotiated intervals plus 5 s of
 * the last heart-beat, as a NonDurable probe delivered after the close shows (plus the probe's
 * own margin). One that negotiated none cannot tell: `warn`, and its session is left alone.
 */
export const silentScenario: Scenario = {
  name: 'silent connection',
  checks: [STOMP_CHECKS.detectsSilence],
  async run(ctx) {
    return [await play(ctx)];
  },
};

async function play(ctx: ScenarioContext): Promise<CheckResult> {
  const info = STOMP_CHECKS.detectsSilence;
  const open = await awaitOpen(ctx, 'stomp', 10_000);
  if (!open) return verdict(info, 'skip', 'no STOMP session to silence (see connects-with-bearer)');
  const connected = await connectOf(ctx, open);
  if (!connected) {
    return verdict(info, 'skip', 'its STOMP session sent no CONNECT, so no heart-beats were negotiated', [
      evidenceOf(open),
    ]);
  }
  const every = connected.sendEveryMs;
  if (every === 0) {
    return verdict(
      info,
      'warn',
      `negotiated no heart-beats from the server (${describeHeartBeats(connected)}): it cannot tell a silent ` +
        'connection from a quiet one, so certify left its session alone; ask for them in CONNECT (heart-beat: cx,cy with cy > 0)',
      [evidenceOf(open), evidenceOf(connected)],
    );
  }
  const silenced = silenceSessions(ctx, STOMP_PATHS);
  if (!silenced) return verdict(info, 'skip', 'its session closed before certify could silence it');
  const limit = SILENT_INTERVALS * every + SILENT_MARGIN_MS;
  const deadline = silenced.lastAt + limit;
  const bound = `${secs(limit)}: ${SILENT_INTERVALS} heart-beat intervals of ${every} ms plus ${secs(SILENT_MARGIN_MS)}`;
  const evidence = [evidenceOf(open), evidenceOf(connected), ...silenced.evidence];
  const since = (at: number) => secs(at - silenced.lastAt);
  const found = await nextClose(ctx, 'stomp', silenced.at, Math.max(0, deadline - ctx.now()));
  const closed = found && found.at <= deadline ? found : undefined;
  let result: CheckResult;
  if (!closed) {
    result = verdict(
      info,
      'fail',
      `kept the silent session open ${secs(limit)} after the server's last heart-beat (${SILENT_INTERVALS} of the ` +
        `${every} ms intervals it negotiated, plus ${secs(SILENT_MARGIN_MS)}): it does not act on the heart-beats it asked for`,
      evidence,
    );
  } else {
    evidence.push(evidenceOf(closed));
    // Probes only after the close: the silent session is still subscribed at the simulator, so a
    // delivery before it would prove nothing.
    const probed = await probeSubscription(
      ctx,
      'after-silence',
      Math.max(deadline + PROBE_MARGIN_MS, ctx.now() + 500),
    );
    evidence.push(
      ...probed.injected.map((p) => note(p.at, `injected NonDurable ${PROBE_CHANNEL} payloadKey=${p.key}`)),
    );
    if (probed.delivered) {
      evidence.push(note(probed.delivered.at, `journal: ${probed.delivered.key} delivered over stomp`));
      result = verdict(
        info,
        'pass',
        `dropped the silent session ${since(closed.at)} after the last heart-beat and was subscribed again ` +
          `${since(probed.delivered.at)} after it (limit ${bound}, plus ${secs(PROBE_MARGIN_MS)} for the probe)`,
        evidence,
      );
    } else {
      result = verdict(
        info,
        'fail',
        `dropped the silent session ${since(closed.at)} after the last heart-beat but was not subscribed again ` +
          `within ${secs(limit)} of it (${SILENT_INTERVALS} of the ${every} ms intervals it negotiated, plus ` +
          `${secs(SILENT_MARGIN_MS)}): none of ${probed.injected.length} NonDurable messages reached it`,
        evidence,
      );
    }
  }
  await recover(ctx, 'stomp', silenced.at, !found);
  return result;
}

/** The CONNECT of this session (the newest at or after its open). */
async function connectOf(
  ctx: ScenarioContext,
  open: TrafficOf<'session-open'>,
): Promise<TrafficOf<'stomp-connected'> | undefined> {
  const mine = (e: TrafficOf<'stomp-connected'>) => e.user === ctx.user.key;
  const seen = ctx.traffic.of('stomp-connected', open.at).filter(mine);
  if (seen.length > 0) return seen[seen.length - 1];
  const deadline = open.at + ctx.timings.authTimeoutMs + CONNECT_SLACK_MS;
  return ctx.traffic.next('stomp-connected', mine, {
    since: open.at,
    timeoutMs: Math.max(0, deadline - ctx.now()),
  });
}
