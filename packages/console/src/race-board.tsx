import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, getJson, send } from './api';
import { ACTION_SPECS, MEETING_ACTIONS, RACE_ACTIONS } from '../../race-day/src/actions/action-types';
import type { ActionName } from '../../race-day/src/actions/action-types';
import type {
  ControlState,
  RaceDayGotoResult,
  RaceDayMeetingState,
  RaceDayRaceState,
  RaceDayState,
} from '../../control/src/wire';
import { ActionOutcomeView, RaceActionForm, type ActionOutcome } from './race-action-form';
import type { RaceRef } from './race-index';
import './race-board.css';
import { DocLink } from './doc-link';

/** How often the board asks for the plan: phases and statuses change with the day's clock. */
export const BOARD_POLL_MS = 1000;

interface Fetched {
  readonly state: RaceDayState;
  /** performance.now() when it came: the day's now is its dayTime plus the time since, at its speed. */
  readonly at: number;
}

function dayNowMs(f: Fetched, now: number): number {
  return Date.parse(f.state.play.dayTime) + (now - f.at) * f.state.play.speed;
}

function minutesSeconds(ms: number): string {
  const s = Math.floor(Math.abs(ms) / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** The countdown in words: to the start the plan has now (delays and recalls move it). */
export function countdownText(race: RaceDayRaceState, dayNow: number): string {
  if (race.phase === 'cancelled') return race.phase;
  const toStart = Date.parse(race.actualStart) - dayNow;
  return toStart > 0 ? `starts in ${minutesSeconds(toStart)}` : `started ${minutesSeconds(toStart)} ago`;
}

const clock = (iso: string) => iso.slice(11, 19);

const GOTO_PHASES = ['parade', 'countdown', 'start', 'finish', 'result'] as const;

function GotoControl({ trackId, raceNr, onDone }: RaceRef & { onDone: (message: string) => void }) {
  const [phase, setPhase] = useState<(typeof GOTO_PHASES)[number]>('start');
  const [seconds, setSeconds] = useState('-30');
  const id = `goto-${trackId}-${raceNr}`;
  const go = async (e: Event) => {
    e.preventDefault();
    try {
      const r = await send<RaceDayGotoResult>('POST', '/_sim/race-day/goto', {
        trackId,
        raceNr,
        phase,
        offsetMs: Math.round(Number(seconds) * 1000),
      });
      onDone(`went to ${clock(r.target)} (${r.played} message(s) played on the way); race ${r.phase}`);
    } catch (err) {
      onDone(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <form class="race-goto" onSubmit={go}>
      <label>
        Go to
        <input
          id={`${id}-seconds`}
          type="number"
          step="any"
          value={seconds}
          aria-label="seconds from the moment (negative: before)"
          onInput={(e) => setSeconds((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <label>
        s from
        <select
          id={`${id}-phase`}
          value={phase}
          onChange={(e) => setPhase((e.currentTarget as HTMLSelectElement).value as typeof phase)}
        >
          {GOTO_PHASES.map((p) => (
            <option value={p}>{p}</option>
          ))}
        </select>
      </label>
      <button type="submit" class="race-goto-button">
        Go
      </button>
    </form>
  );
}

function RaceCard({
  meeting,
  race,
  dayNow,
  selected,
  onSelect,
  refresh,
}: {
  meeting: RaceDayMeetingState;
  race: RaceDayRaceState;
  dayNow: number;
  selected: boolean;
  onSelect: (race: RaceRef | undefined) => void;
  refresh: () => void;
}) {
  const [open, setOpen] = useState<ActionName | undefined>(undefined);
  const [outcome, setOutcome] = useState<ActionOutcome | undefined>(undefined);
  const [gotoNote, setGotoNote] = useState('');
  const allowed = new Set(race.allowed);
  const ref = { trackId: meeting.trackId, raceNr: race.raceNr };
  const press = (name: ActionName) => {
    setOutcome(undefined);
    setOpen(open === name ? undefined : name);
  };
  return (
    <article
      class={`race race-${race.phase}${selected ? ' race-selected' : ''}`}
      data-track={meeting.trackId}
      data-race={race.raceNr}
      data-phase={race.phase}
      aria-label={`Race ${race.raceNr} at ${meeting.track}`}
    >
      <div class="race-head">
        <strong>
          Race {race.raceNr} <span class="meta">{race.name}</span>
        </strong>
        <span class={`race-phase phase-${race.phase}`}>{race.phase}</span>
        <span class="race-countdown">{countdownText(race, dayNow)}</span>
        <span class="meta">
          scheduled <time class="race-scheduled">{clock(race.scheduledStart)}</time> · start{' '}
          <time class="race-actual">{clock(race.actualStart)}</time>
        </span>
        <button
          type="button"
          class="race-filter"
          aria-pressed={selected}
          onClick={() => onSelect(selected ? undefined : ref)}
        >
          {selected ? 'Show every race in the feed' : 'Filter the feed to this race'}
        </button>
      </div>
      <div class="race-actions" role="group" aria-label={`Actions on race ${race.raceNr}`}>
        {RACE_ACTIONS.filter((name) => allowed.has(name)).map((name) => (
          <button
            type="button"
            data-action={name}
            aria-expanded={open === name}
            title={ACTION_SPECS[name].summary}
            onClick={() => press(name)}
          >
            {name}
          </button>
        ))}
        <GotoControl {...ref} onDone={(note) => (setGotoNote(note), refresh())} />
      </div>
      {open && (
        <RaceActionForm
          trackId={meeting.trackId}
          race={race}
          action={open}
          onCancel={() => setOpen(undefined)}
          onDone={(o) => {
            setOutcome(o);
            if (o.ok) setOpen(undefined);
            refresh();
          }}
        />
      )}
      {gotoNote && (
        <p class="meta race-goto-note" role="status">
          {gotoNote}
        </p>
      )}
      {outcome && <ActionOutcomeView outcome={outcome} />}
      <details class="race-starters">
        <summary>Starters ({race.starters.length})</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Nr</th>
              <th scope="col">Post</th>
              <th scope="col">Horse</th>
              <th scope="col">{meeting.sport === 'trot' ? 'Driver' : 'Jockey'}</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {race.starters.map((s) => (
              <tr key={s.startNr} data-start={s.startNr} data-status={s.status}>
                <td class="num">{s.startNr}</td>
                <td class="num">{s.postPosition}</td>
                <td>{s.horse}</td>
                <td>{s.driver ?? s.jockey ?? ''}</td>
                <td class={`starter-${s.status}`}>
                  {s.status}
                  {s.place !== undefined && ` ${s.place}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </article>
  );
}

function MeetingActions({ meeting, refresh }: { meeting: RaceDayMeetingState; refresh: () => void }) {
  const [open, setOpen] = useState<ActionName | undefined>(undefined);
  const [outcome, setOutcome] = useState<ActionOutcome | undefined>(undefined);
  const allowed = new Set(meeting.allowed);
  const first = meeting.races[0];
  if (!first) return null;
  return (
    <>
      <div class="race-actions" role="group" aria-label={`Actions on the meeting at ${meeting.track}`}>
        {MEETING_ACTIONS.filter((name) => allowed.has(name)).map((name) => (
          <button
            type="button"
            data-action={name}
            aria-expanded={open === name}
            title={ACTION_SPECS[name].summary}
            onClick={() => (setOutcome(undefined), setOpen(open === name ? undefined : name))}
          >
            {name}
          </button>
        ))}
      </div>
      {open && (
        <RaceActionForm
          trackId={meeting.trackId}
          race={first}
          action={open}
          onCancel={() => setOpen(undefined)}
          onDone={(o) => (setOutcome(o), o.ok && setOpen(undefined), refresh())}
        />
      )}
      {outcome && <ActionOutcomeView outcome={outcome} />}
    </>
  );
}

/**
 * The race board: the simulator's model of the day (GET /_sim/race-day, polled), each race with
 * its phase, a live countdown and the actions its phase allows. Hidden while no day plays.
 */
export function RaceBoard({
  selected,
  onSelect,
}: {
  /** The race the live feed is filtered to, if any. */
  selected: RaceRef | undefined;
  onSelect: (race: RaceRef | undefined) => void;
}) {
  const [fetched, setFetched] = useState<Fetched | undefined>(undefined);
  const [now, setNow] = useState(() => performance.now());
  const playing = useRef(false);
  const refresh = useCallback(() => {
    const plan = () =>
      getJson<RaceDayState>('/_sim/race-day').then(
        (state) => {
          playing.current = true;
          setFetched({ state, at: performance.now() });
        },
        (err: unknown) => {
          // The day stopped (404) hides the board; anything else keeps the last plan shown.
          if (err instanceof ApiError && err.status === 404) {
            playing.current = false;
            setFetched(undefined);
          }
        },
      );
    // While no day plays, ask the state (always 200) rather than the plan (404 each time).
    if (playing.current) void plan();
    else {
      getJson<ControlState>('/_sim/state').then(
        (state) => {
          if (state.raceDay.on) void plan();
        },
        () => undefined,
      );
    }
  }, []);
  useEffect(() => {
    refresh();
    const poll = setInterval(refresh, BOARD_POLL_MS);
    // The countdown ticks between polls on the day's clock.
    const tick = setInterval(() => setNow(performance.now()), 250);
    return () => {
      clearInterval(poll);
      clearInterval(tick);
    };
  }, [refresh]);
  if (!fetched) return null;
  const { state } = fetched;
  const dayNow = dayNowMs(fetched, Math.max(now, fetched.at));
  return (
    <section class="panel race-board" id="race-board" aria-labelledby="race-board-title">
      <div class="bar">
        <h2 id="race-board-title">
          Race board <DocLink page="race-days.md#the-race-board-in-the-console" what="the race board" />
        </h2>
        <span class="meta" id="race-board-clock">
          {state.date} · day time{' '}
          <time>{new Date(dayNow).toLocaleTimeString('sv-SE', { timeZone: state.timeZone })}</time>
          {state.play.speed !== 1 && ` · speed ${state.play.speed}×`} · seed {state.seed}
        </span>
      </div>
      <p class="race-board-note" id="race-board-note">
        This is the simulator's model of the day (generated from seed {state.seed}), not real racing: every
        name, time and result is made up, and actions here change only this simulator's day.
      </p>
      {state.meetings.map((meeting) => (
        <section
          class="meeting"
          data-track={meeting.trackId}
          aria-label={`${meeting.track} (${meeting.trackId})`}
        >
          <h3>
            {meeting.track} <span class="meta">track {meeting.trackId}</span>{' '}
            <span class="meta">
              {meeting.sport} · {meeting.type} · first start {clock(meeting.firstStart)}
            </span>{' '}
            <span class={`meeting-status status-${meeting.status}`}>{meeting.status}</span>
            {meeting.reason && <span class="meta"> ({meeting.reason})</span>}
          </h3>
          <MeetingActions meeting={meeting} refresh={refresh} />
          {meeting.races.map((race) => (
            <RaceCard
              key={race.raceNr}
              meeting={meeting}
              race={race}
              dayNow={dayNow}
              selected={selected?.trackId === meeting.trackId && selected.raceNr === race.raceNr}
              onSelect={onSelect}
              refresh={refresh}
            />
          ))}
        </section>
      ))}
    </section>
  );
}
