import type {
  RaceDayActionRequest,
  RaceDayActionResult,
  RaceDayGotoRequest,
  RaceDayGotoResult,
  RaceDayState,
} from './control-types';

/** The arguments of one action: its fields without `action`. */
export type ActionArgs<A extends RaceDayActionRequest['action']> = Omit<
  Extract<RaceDayActionRequest, { action: A }>,
  'action'
>;

/**
 * One typed call per race-day action, each a POST /_sim/race-day/actions; a phase that forbids
 * it is a ControlError with status 409 (RACE_DAY_PHASE), an unknown race or start a 400.
 */
export interface RaceDayActions<R> {
  /** Any action, as its body. */
  act(action: RaceDayActionRequest): Promise<R>;
  scratch(args: ActionArgs<'scratch'>): Promise<R>;
  changeDriver(args: ActionArgs<'change-driver'>): Promise<R>;
  delayStart(args: ActionArgs<'delay-start'>): Promise<R>;
  falseStart(args: ActionArgs<'false-start'>): Promise<R>;
  disqualify(args: ActionArgs<'disqualify'>): Promise<R>;
  deadHeat(args: ActionArgs<'dead-heat'>): Promise<R>;
  correctResult(args: ActionArgs<'correct-result'>): Promise<R>;
  cancelRace(args: ActionArgs<'cancel-race'>): Promise<R>;
  finishNow(args: ActionArgs<'finish-now'>): Promise<R>;
  cancelMeeting(args: ActionArgs<'cancel-meeting'>): Promise<R>;
  abandonMeeting(args: ActionArgs<'abandon-meeting'>): Promise<R>;
  postponeMeeting(args: ActionArgs<'postpone-meeting'>): Promise<R>;
}

/**
 * `control.raceDay`: called, GET /_sim/race-day (undefined when no day plays); its members steer
 * the day: `plan()`, `goto()` and one call per action.
 */
export interface RaceDaySteering extends RaceDayActions<RaceDayActionResult> {
  (): Promise<RaceDayState | undefined>;
  /** GET /_sim/race-day: the typed plan as it stands now; a ControlError (404) when no day plays. */
  plan(): Promise<RaceDayState>;
  /** POST /_sim/race-day/goto: forward to a moment of a race; backwards is a 409. */
  goto(target: RaceDayGotoRequest): Promise<RaceDayGotoResult>;
}

/** The per-action calls over one `act`. */
export function actionCalls<R>(act: (action: RaceDayActionRequest) => Promise<R>): RaceDayActions<R> {
  const call =
    <A extends RaceDayActionRequest['action']>(action: A) =>
    (args: ActionArgs<A>) =>
      act({ ...args, action } as RaceDayActionRequest);
  return {
    act,
    scratch: call('scratch'),
    changeDriver: call('change-driver'),
    delayStart: call('delay-start'),
    falseStart: call('false-start'),
    disqualify: call('disqualify'),
    deadHeat: call('dead-heat'),
    correctResult: call('correct-result'),
    cancelRace: call('cancel-race'),
    finishNow: call('finish-now'),
    cancelMeeting: call('cancel-meeting'),
    abandonMeeting: call('abandon-meeting'),
    postponeMeeting: call('postpone-meeting'),
  };
}
