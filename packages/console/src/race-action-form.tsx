import { useState } from 'preact/hooks';
import { ApiError, send } from './api';
// Only the specs (plain data, no Node): the form asks for what POST /_sim/race-day/actions takes.
import { ACTION_SPECS, type ActionName, type ArgumentSpec } from '../../race-day/src/actions/action-types';
import type { RaceDayActionResult, RaceDayRaceState } from '../../control/src/wire';
import { DocLink } from './doc-link';

/** What an action sent, or why it was refused: shown under the race until the next press. */
export type ActionOutcome =
  | { readonly ok: true; readonly result: RaceDayActionResult }
  | { readonly ok: false; readonly message: string };

/** "2, 7" → [2, 7]; "3:1, 5:2" → placings. Left to the server to judge, so its 400 names what is wrong. */
function argumentValue(spec: ArgumentSpec, text: string): unknown {
  const items = () =>
    text
      .split(/[\s,]+/)
      .filter((s) => s !== '')
      .map((s) => s.trim());
  switch (spec.type) {
    case 'integer':
    case 'number':
      return Number(text);
    case 'integer[]':
      return items().map(Number);
    case 'placings':
      return items().map((pair) => {
        const [startNr, place] = pair.split(':');
        return { startNr: Number(startNr), place: Number(place) };
      });
    default:
      return text;
  }
}

const PLACEHOLDER: Partial<Record<ArgumentSpec['type'], string>> = {
  'integer[]': 'e.g. 2, 7',
  placings: 'startNr:place, e.g. 3:1, 5:2',
  time: 'HH:MM',
};

function ArgumentField({
  id,
  spec,
  race,
  value,
  onInput,
}: {
  id: string;
  spec: ArgumentSpec;
  race: RaceDayRaceState;
  value: string;
  onInput: (value: string) => void;
}) {
  const set = (e: Event) => onInput((e.currentTarget as HTMLInputElement).value);
  const label = `${spec.name}${spec.required ? '' : ' (optional)'}`;
  if (spec.name === 'startNr') {
    return (
      <label>
        {label}
        <select id={id} name={spec.name} value={value} onChange={set} required>
          <option value="">choose</option>
          {race.starters.map((s) => (
            <option value={String(s.startNr)}>
              {s.startNr} {s.horse} ({s.status})
            </option>
          ))}
        </select>
      </label>
    );
  }
  const type =
    spec.type === 'date' ? 'date' : spec.type === 'integer' || spec.type === 'number' ? 'number' : 'text';
  return (
    <label>
      {label}
      <input
        id={id}
        name={spec.name}
        type={type}
        value={value}
        onInput={set}
        required={spec.required}
        placeholder={PLACEHOLDER[spec.type] ?? ''}
        title={spec.summary}
      />
    </label>
  );
}

/**
 * The arguments of one action on one race, then Send. Posts the action and hands the answer
 * (the messages it sent) or the refusal to the board.
 */
export function RaceActionForm({
  trackId,
  race,
  action,
  onDone,
  onCancel,
}: {
  trackId: number;
  race: RaceDayRaceState;
  action: ActionName;
  onDone: (outcome: ActionOutcome) => void;
  onCancel: () => void;
}) {
  const spec = ACTION_SPECS[action];
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const prefix = `act-${trackId}-${race.raceNr}`;
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    const body: Record<string, unknown> = { action, trackId, raceNr: race.raceNr };
    for (const arg of spec.args) {
      const text = (values[arg.name] ?? '').trim();
      if (text !== '') body[arg.name] = argumentValue(arg, text);
    }
    try {
      onDone({ ok: true, result: await send<RaceDayActionResult>('POST', '/_sim/race-day/actions', body) });
    } catch (err) {
      onDone({ ok: false, message: err instanceof ApiError ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="race-action-form" data-action={action} onSubmit={submit}>
      <p class="meta">
        <strong>{action}</strong>: {spec.summary}{' '}
        <DocLink page="race-days.md#steering-the-day-actions-and-go-to" what="race-day actions" />
      </p>
      {spec.args.map((arg) => (
        <ArgumentField
          key={arg.name}
          id={`${prefix}-${arg.name}`}
          spec={arg}
          race={race}
          value={values[arg.name] ?? ''}
          onInput={(value) => setValues({ ...values, [arg.name]: value })}
        />
      ))}
      <button type="submit" class="primary" disabled={busy}>
        Send {action}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** The messages an action sent at once, as its answer lists them, or why it was refused. */
export function ActionOutcomeView({ outcome }: { outcome: ActionOutcome }) {
  if (!outcome.ok) {
    return (
      <p class="error race-outcome" role="alert">
        {outcome.message}
      </p>
    );
  }
  const r = outcome.result;
  return (
    <div class="race-outcome" role="status">
      <p>
        {r.action} at {r.dayTime.slice(11, 19)}: {r.emitted.length} message(s) sent
        {r.phase && `, race now ${r.phase}`}
      </p>
      <ol class="race-emitted">
        {r.emitted.map((m, i) => (
          <li key={i} data-channel={m.channel}>
            <time>{m.at.slice(11, 19)}</time> {m.channel} ({m.delivery})
            {m.raceNr !== undefined && ` race ${m.raceNr}`}
            {m.startNr !== undefined && ` start ${m.startNr}`}
          </li>
        ))}
      </ol>
    </div>
  );
}
