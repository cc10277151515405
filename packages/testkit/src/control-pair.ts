import type {
  ClockAdvance,
  CloseConnectionsFilter,
  RaceDayActionResult,
  RaceDayGotoRequest,
  RaceDayGotoResult,
  RaceDayRequest,
  RaceDayState,
  ResetOptions,
  ResetResult,
  SandboxOptions,
  SimState,
} from './control-types';
import type { JsonControlClient } from './json-control-client';
import type { LegacyControlClient } from './legacy-control-client';
import type { Sandbox } from './control-client';
import { actionCalls, type RaceDayActions } from './race-day-steering';

export interface RaceDayPairSteering extends RaceDayActions<PerSimulator<RaceDayActionResult>> {
  (): Promise<PerSimulator<RaceDayState | undefined>>;
  plan(): Promise<PerSimulator<RaceDayState>>;
  goto(target: RaceDayGotoRequest): Promise<PerSimulator<RaceDayGotoResult>>;
}

function pairSteering(
  json: JsonControlClient,
  legacy: LegacyControlClient,
  both: <T>(
    call: (client: JsonControlClient | LegacyControlClient) => Promise<T>,
  ) => Promise<PerSimulator<T>>,
): RaceDayPairSteering {
  return Object.assign(() => both((c) => c.raceDay()), {
    plan: () => both((c) => c.raceDay.plan()),
    // One after the other: on a shared day each player moves with its own clock.
    goto: async (target: RaceDayGotoRequest) => {
      const j = await json.raceDay.goto(target);
      return { json: j, legacy: await legacy.raceDay.goto(target) };
    },
    ...actionCalls(async (action) => {
      const [jsonDay, legacyDay] = await Promise.all([json.raceDay(), legacy.raceDay()]);
      const shared = jsonDay !== undefined && legacyDay?.play.startedAt === jsonDay.play.startedAt;
      const j = await json.raceDay.act(action);
      return { json: j, legacy: shared ? j : await legacy.raceDay.act(action) };
    }),
  });
}

/** One answer from each simulator. */
export interface PerSimulator<T> {
  readonly json: T;
  readonly legacy: T;
}

/**
 * A sandbox in each simulator, made together: `json.url` and `legacy.url` are where the code
 * under test goes, each with its own users and control client. close() frees both.
 */
export interface SandboxPair extends PerSimulator<Sandbox> {
  readonly json: Sandbox<JsonControlClient>;
  readonly legacy: Sandbox<LegacyControlClient>;
  close(): Promise<void>;
}

/**
 * The control plane of both simulators at once, for the calls a suite makes on both between
 * tests (reset, clearing faults, moving time, a sandbox each); anything simulator-specific goes
 * through `json` or `legacy`. Each call goes to both in parallel and answers with both results.
 */
export interface ControlPair {
  readonly json: JsonControlClient;
  readonly legacy: LegacyControlClient;
  reset(options?: ResetOptions): Promise<PerSimulator<ResetResult>>;
  state(): Promise<PerSimulator<SimState>>;
  clearFaults(): Promise<PerSimulator<number>>;
  closeConnections(filter?: CloseConnectionsFilter): Promise<PerSimulator<number>>;
  /** A user known to only one of the simulators gets a 400 from the other: use `json` or `legacy`. */
  expireTokens(user?: string): Promise<PerSimulator<string[]>>;
  advanceClock(ms: number): Promise<PerSimulator<ClockAdvance>>;
  /**
   * Starts a race day on both. Simulators sharing one day (`racedata-sim all`, startSimulators)
   * start it once; separate ones each start the same options.
   */
  startRaceDay(request?: RaceDayRequest): Promise<PerSimulator<RaceDayState>>;
  stopRaceDay(): Promise<PerSimulator<boolean>>;
  /**
   * Called, each simulator's day (undefined where none plays). Its members steer both:
   * `plan()`, `goto()` (each simulator's clock moves to the moment, so the two stay in step) and
   * one call per action. An action on a shared day (`racedata-sim all`, startSimulators) is
   * posted once and both simulators play it (`legacy` then repeats the JSON simulator's answer);
   * separate days each take it.
   */
  readonly raceDay: RaceDayPairSteering;
  /** A sandbox in each simulator; when one cannot be made, the other is freed again. */
  sandbox(options?: SandboxOptions): Promise<SandboxPair>;
}

export function controlPair(json: JsonControlClient, legacy: LegacyControlClient): ControlPair {
  const both = async <T>(
    call: (client: JsonControlClient | LegacyControlClient) => Promise<T>,
  ): Promise<PerSimulator<T>> => {
    const [j, l] = await Promise.all([call(json), call(legacy)]);
    return { json: j, legacy: l };
  };
  return {
    json,
    legacy,
    reset: (options) => both((c) => c.reset(options)),
    state: () => both((c) => c.state()),
    clearFaults: () => both((c) => c.clearFaults()),
    closeConnections: (filter) => both((c) => c.closeConnections(filter)),
    expireTokens: (user) => both((c) => c.expireTokens(user)),
    advanceClock: (ms) => both((c) => c.advanceClock(ms)),
    startRaceDay: async (request = {}) => {
      const j = await json.startRaceDay(request);
      const shown = await legacy.raceDay();
      // The same start on both means one shared day: starting it again would store its history twice.
      const l = shown?.play.startedAt === j.play.startedAt ? shown : await legacy.startRaceDay(request);
      return { json: j, legacy: l };
    },
    stopRaceDay: () => both((c) => c.stopRaceDay()),
    raceDay: pairSteering(json, legacy, both),
    sandbox: (options) => sandboxPair(json, legacy, options),
  };
}

async function sandboxPair(
  json: JsonControlClient,
  legacy: LegacyControlClient,
  options: SandboxOptions | undefined,
): Promise<SandboxPair> {
  const [j, l] = await Promise.allSettled([json.sandbox(options), legacy.sandbox(options)]);
  if (j.status === 'rejected' || l.status === 'rejected') {
    // No half-made pair is left behind to count against SANDBOX_MAX.
    await Promise.all([j, l].map((made) => (made.status === 'fulfilled' ? made.value.close() : undefined)));
    throw j.status === 'rejected' ? j.reason : (l as PromiseRejectedResult).reason;
  }
  let closing: Promise<void> | undefined;
  return {
    json: j.value,
    legacy: l.value,
    close: () => {
      closing ??= Promise.all([j.value.close(), l.value.close()]).then(() => undefined);
      return closing;
    },
  };
}
