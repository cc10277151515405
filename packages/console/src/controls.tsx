import { useState } from 'preact/hooks';
import { ApiError, send } from './api';
import type { ReplayView } from '@racedata/core';
import type { ConsoleStateEvent, UserInfo } from '../../control/src/wire';
import { DocLink } from './doc-link';

type Run = (what: string, action: () => Promise<unknown>) => Promise<boolean>;

/** One place that runs a control-plane call and shows its answer or its error. */
function useRunner(): { run: Run; message: { ok: boolean; text: string } | undefined } {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const run: Run = async (what, action) => {
    try {
      await action();
      setMessage({ ok: true, text: `${what}: done` });
      return true;
    } catch (err) {
      setMessage({ ok: false, text: `${what}: ${err instanceof ApiError ? err.message : String(err)}` });
      return false;
    }
  };
  return { run, message };
}

function Status({ message, id }: { message: { ok: boolean; text: string } | undefined; id: string }) {
  return (
    <p id={id} class={message?.ok === false ? 'error' : 'ok'} role="status">
      {message?.text ?? ''}
    </p>
  );
}

function replaySummary(replay: ReplayView | undefined): string {
  if (!replay) return 'loading…';
  if (replay.recorded === 0) return 'no recordings loaded';
  if (!replay.on) return `stopped (${replay.recorded} recorded messages)`;
  const speed =
    replay.mode === 'interval'
      ? `every ${replay.intervalMs} ms`
      : `recorded gaps, max ${replay.maxDelayMs ?? '∞'} ms`;
  return `${replay.paused ? 'paused' : 'running'} · ${speed} · ${replay.position}/${replay.total} · ${replay.sent} sent${
    replay.nextRace ? ` · next: ${replay.nextRace}` : ''
  }`;
}

export function ReplayControls({ replay }: { replay: ReplayView | undefined }) {
  const { run, message } = useRunner();
  const [mode, setMode] = useState<'intervalMs' | 'maxDelayMs'>('intervalMs');
  const [ms, setMs] = useState('1000');
  const speed = () => ({ [mode]: Number(ms) });
  const act = (action: string, extra: object = {}) =>
    void run(`replay ${action}`, () => send('POST', '/_sim/replay', { action, ...extra }));
  return (
    <section class="panel" aria-labelledby="replay-title">
      <h2 id="replay-title">
        Replay <DocLink page="control-plane.md#console-endpoints" what="replay control" />
      </h2>
      <p id="replay-state" aria-live="polite">
        {replaySummary(replay)}
      </p>
      <div class="row">
        <button type="button" id="replay-start" onClick={() => act('start', speed())} disabled={replay?.on}>
          Start
        </button>
        <button
          type="button"
          id="replay-pause"
          onClick={() => act('pause')}
          disabled={!replay?.on || replay.paused}
        >
          Pause
        </button>
        <button type="button" id="replay-resume" onClick={() => act('resume')} disabled={!replay?.paused}>
          Resume
        </button>
        <button type="button" id="replay-next" onClick={() => act('next-race')} disabled={!replay?.on}>
          Next race
        </button>
      </div>
      <div class="row">
        <label>
          Speed
          <select
            id="replay-mode"
            value={mode}
            onChange={(e) => setMode(e.currentTarget.value as typeof mode)}
          >
            <option value="intervalMs">one message every (ms)</option>
            <option value="maxDelayMs">recorded gaps, at most (ms)</option>
          </select>
        </label>
        <label>
          Milliseconds
          <input
            id="replay-ms"
            type="number"
            min={mode === 'intervalMs' ? 1 : 0}
            value={ms}
            onInput={(e) => setMs(e.currentTarget.value)}
          />
        </label>
        <button type="button" id="replay-speed" onClick={() => act('speed', speed())} disabled={!replay?.on}>
          Set speed
        </button>
      </div>
      <Status id="replay-message" message={message} />
    </section>
  );
}

const FAULT_KINDS = {
  status: '503 for N requests',
  delay: 'delay (ms)',
  disconnect: 'disconnect sessions',
} as const;

function faultLabel(rule: ConsoleStateEvent['faults'][number]): string {
  const { action, match } = rule;
  const what =
    action.type === 'status'
      ? `${action.status}`
      : action.type === 'delay'
        ? `delay ${action.ms} ms`
        : action.type;
  const where = [match.transport, match.user, match.path].filter(Boolean).join(' ') || 'every request';
  const left = rule.times !== undefined ? `, ${rule.times - rule.fired} of ${rule.times} left` : '';
  return `${what} on ${where} (fired ${rule.fired}${left})`;
}

export function FaultControls({
  state,
  users,
  transports,
}: {
  state: ConsoleStateEvent | undefined;
  users: UserInfo[];
  transports: readonly string[];
}) {
  const { run, message } = useRunner();
  const [type, setType] = useState<keyof typeof FAULT_KINDS>('status');
  const [transport, setTransport] = useState('');
  const [user, setUser] = useState('');
  const [times, setTimes] = useState('1');
  const [ms, setMs] = useState('2000');
  const [closeUser, setCloseUser] = useState('');

  const add = (event: Event) => {
    event.preventDefault();
    const match = { ...(transport && { transport }), ...(user && { user }) };
    const action =
      type === 'status'
        ? { type, status: 503 }
        : type === 'delay'
          ? { type, ms: Number(ms) }
          : { type: 'disconnect' };
    const rule = { match, action, ...(times !== '' && { times: Number(times) }) };
    void run('add fault', () => send('POST', '/_sim/faults', rule));
  };

  return (
    <section class="panel" aria-labelledby="faults-title">
      <h2 id="faults-title">
        Faults and connections <DocLink page="control-plane.md#faults" what="faults and connections" />
      </h2>
      <form class="row wrap" onSubmit={add} aria-label="Add a fault">
        <label>
          Fault
          <select
            id="fault-type"
            value={type}
            onChange={(e) => setType(e.currentTarget.value as typeof type)}
          >
            {Object.entries(FAULT_KINDS).map(([value, label]) => (
              <option value={value}>{label}</option>
            ))}
          </select>
        </label>
        <label>
          Transport
          <select
            id="fault-transport"
            value={transport}
            onChange={(e) => setTransport(e.currentTarget.value)}
          >
            <option value="">any</option>
            {transports.map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          User
          <select id="fault-user" value={user} onChange={(e) => setUser(e.currentTarget.value)}>
            <option value="">any</option>
            {users.map((u) => (
              <option value={u.key}>{u.key}</option>
            ))}
          </select>
        </label>
        <label>
          Times (N)
          <input
            id="fault-times"
            type="number"
            min={1}
            value={times}
            onInput={(e) => setTimes(e.currentTarget.value)}
          />
        </label>
        {type === 'delay' && (
          <label>
            Delay ms
            <input
              id="fault-ms"
              type="number"
              min={0}
              value={ms}
              onInput={(e) => setMs(e.currentTarget.value)}
            />
          </label>
        )}
        <button type="submit" id="fault-add">
          Add fault
        </button>
      </form>
      <ul id="fault-list" aria-label="Active fault rules">
        {(state?.faults ?? []).map((rule) => (
          <li key={rule.id} data-fault={rule.id}>
            <span>{faultLabel(rule)}</span>{' '}
            <button
              type="button"
              class="small"
              aria-label={`Remove fault ${rule.id}`}
              onClick={() =>
                void run('remove fault', () => send('DELETE', `/_sim/faults/${encodeURIComponent(rule.id)}`))
              }
            >
              Remove
            </button>
          </li>
        ))}
        {(state?.faults.length ?? 0) === 0 && <li class="meta">no fault rules</li>}
      </ul>
      <div class="row wrap">
        <label>
          Close connections of
          <select id="close-user" value={closeUser} onChange={(e) => setCloseUser(e.currentTarget.value)}>
            <option value="">every user</option>
            {users.map((u) => (
              <option value={u.key}>{u.key}</option>
            ))}
          </select>
        </label>
        <button
          type="button"
          id="close-connections"
          onClick={() =>
            void run('close connections', () =>
              send('POST', '/_sim/connections/close', closeUser ? { user: closeUser } : {}),
            )
          }
        >
          Close connections
        </button>
        <button
          type="button"
          id="reset"
          class="danger"
          onClick={() => {
            if (
              window.confirm(
                'Reset the simulator? Stored events, queues, the journal and fault rules are cleared.',
              )
            ) {
              void run('reset', () => send('POST', '/_sim/reset'));
            }
          }}
        >
          Reset simulator…
        </button>
      </div>
      <Status id="fault-message" message={message} />
    </section>
  );
}
