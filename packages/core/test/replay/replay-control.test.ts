import { ManualClock } from '../../src/clock';
import { isSimError } from '../../src/errors';
import { silentLogger } from '../../src/logger';
import {
  ReplayControl,
  raceOf,
  type RecordedJsonMessage,
  type RecordedLegacyMessage,
} from '../../src/replay';

const T0 = Date.UTC(2024, 4, 11, 10);

function json(
  i: number,
  channel: string,
  delivery: 'durable' | 'transient',
  raceNr?: number,
): RecordedJsonMessage {
  return {
    kind: 'json',
    at: T0 + i * 1000,
    delivery,
    source: `t:${i}`,
    message: {
      channel,
      date: '2024-05-11',
      trackId: 901,
      ...(raceNr !== undefined && { raceNr }),
      payload: { i },
    },
  };
}

// A programme, start lists, then race 1 live, a result, race 2 live.
const DAY = [
  json(0, 'RaceDayTrot', 'durable'),
  json(1, 'StartListTrot', 'durable', 1),
  json(2, 'StartListTrot', 'durable', 2),
  json(3, 'TimeToStartTrot', 'transient', 1),
  json(4, 'TimeToStartTrot', 'transient', 1),
  json(5, 'ResultTrot', 'durable', 1),
  json(6, 'TimeToStartTrot', 'transient', 2),
  json(7, 'TimeToStartTrot', 'transient', 2),
];

function setup(
  settings: { autoReplayIntervalMs?: number; replayRebaseDates?: boolean } = {},
  recordings = DAY,
) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const sent: number[] = [];
  const control = new ReplayControl<RecordedJsonMessage>({
    settings: {
      autoReplayIntervalMs: undefined,
      initialDelayMs: undefined,
      maxDelayMs: undefined,
      replayRebaseDates: false,
      ...settings,
    },
    recordings,
    clock,
    logger: silentLogger(),
    deliver: (m) => {
      sent.push((m.message.payload as { i: number }).i);
    },
  });
  return { clock, control, sent };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return isSimError(err) ? `${err.status} ${err.code}` : 'other';
  }
  return undefined;
}

describe('ReplayControl', () => {
  it('starts the configured replay on autostart, and nothing without one', () => {
    const configured = setup({ autoReplayIntervalMs: 100 });
    configured.control.autostart();
    configured.clock.advance(200);
    expect(configured.sent).toEqual([0, 1]);
    expect(configured.control.view()).toMatchObject({ on: true, mode: 'interval', intervalMs: 100, sent: 2 });

    const idle = setup();
    idle.control.autostart();
    idle.clock.advance(5000);
    expect(idle.sent).toEqual([]);
    expect(idle.control.view()).toMatchObject({ recorded: 8, on: false, mode: null, total: 0 });
  });

  it('starts on command with the speed asked for, else one message a second', () => {
    const a = setup();
    expect(
      a.control.command({ action: 'start', schedule: { mode: 'interval', intervalMs: 50 } }),
    ).toMatchObject({
      on: true,
      intervalMs: 50,
    });
    a.clock.advance(100);
    expect(a.sent).toEqual([0, 1]);
    const b = setup();
    b.control.command({ action: 'start' });
    b.clock.advance(1000);
    expect(b.sent).toEqual([0]);
  });

  it('pauses, resumes and changes speed, and refuses commands that do not fit the state (409)', () => {
    const { clock, control, sent } = setup({ autoReplayIntervalMs: 100 });
    expect(codeOf(() => control.command({ action: 'resume' }))).toBe('409 REPLAY_STATE');
    control.autostart();
    expect(codeOf(() => control.command({ action: 'start' }))).toBe('409 REPLAY_STATE');
    clock.advance(100);
    expect(control.command({ action: 'pause' })).toMatchObject({ on: true, paused: true });
    expect(codeOf(() => control.command({ action: 'pause' }))).toBe('409 REPLAY_STATE');
    clock.advance(10_000);
    expect(sent).toEqual([0]);
    control.command({ action: 'speed', schedule: { mode: 'timed', maxDelayMs: 10 } });
    control.command({ action: 'resume' });
    // The new gap from the last message has long passed: the next goes at once.
    clock.advance(0);
    expect(sent).toEqual([0, 1]);
    clock.advance(10);
    expect(sent).toEqual([0, 1, 2]);
    expect(control.view()).toMatchObject({ mode: 'timed', maxDelayMs: 10, intervalMs: null });
  });

  it('jumps to the next race: the first live message of another race', () => {
    const { clock, control, sent } = setup({ autoReplayIntervalMs: 100 });
    control.autostart();
    clock.advance(100); // the programme
    expect(control.view().nextRace).toBe('2024-05-11 track 901 race 1');
    control.command({ action: 'next-race' });
    clock.advance(0);
    expect(sent).toEqual([0, 3]);
    control.command({ action: 'next-race' });
    clock.advance(0);
    // Race 1's second countdown tick and its result are skipped.
    expect(sent).toEqual([0, 3, 6]);
    control.command({ action: 'next-race' });
    clock.advance(0);
    // Wraps round to race 1 of the next pass.
    expect(sent).toEqual([0, 3, 6, 3]);
  });

  it('says so when there is nothing to replay or no race to jump to', () => {
    const empty = setup({}, []);
    expect(codeOf(() => empty.control.command({ action: 'start' }))).toBe('409 REPLAY_STATE');
    const noRaces = setup({ autoReplayIntervalMs: 100 }, [json(0, 'RaceDayTrot', 'durable')]);
    noRaces.control.autostart();
    expect(codeOf(() => noRaces.control.command({ action: 'next-race' }))).toBe('409 REPLAY_STATE');
  });

  it('stops on stop() and can be started again', async () => {
    const { clock, control, sent } = setup({ autoReplayIntervalMs: 100 });
    control.autostart();
    clock.advance(100);
    await control.stop();
    expect(control.view().on).toBe(false);
    control.command({ action: 'start', schedule: { mode: 'interval', intervalMs: 10 } });
    clock.advance(10);
    expect(sent).toEqual([0, 0]);
  });
});

describe('raceOf', () => {
  it('reads a JSON event and the root element of a legacy document', () => {
    expect(raceOf(DAY[3]!)).toBe('2024-05-11 track 901 race 1');
    expect(raceOf(DAY[0]!)).toBeUndefined();
    const legacy: RecordedLegacyMessage = {
      kind: 'legacy',
      at: T0,
      delivery: 'transient',
      source: 'l:1',
      channel: 'TimeToStart',
      payloadKey: 'k',
      xml: '<?xml version="1.0"?><TimeToStart date="2024-05-11" trackId="902" raceNr="4"><X raceNr="9"/></TimeToStart>',
    };
    expect(raceOf(legacy)).toBe('2024-05-11 track 902 race 4');
    expect(
      raceOf({ ...legacy, xml: '<RaceDay date="2024-05-11"><Race raceNr="1"/></RaceDay>' }),
    ).toBeUndefined();
  });
});
