import { useEffect, useState } from 'preact/hooks';
import type { ConsoleStateEvent, UserInfo } from '../../control/src/wire';
import { DocLink } from './doc-link';

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (plain http on another host): the token stays selectable.
    return false;
  }
}

/**
 * The simulator's clock, ticking here: the stream sends the state only when it changes, not
 * each second for its time, so the page moves the last time it was told on by itself.
 */
function SimTime({ time, at }: { time: string; at: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span id="sim-time">{new Date(Date.parse(time) + Math.max(0, now - at)).toLocaleTimeString()}</span>;
}

/** Users with their tokens, open sessions, held polls and queue depths, live from the stream. */
export function UsersPanel({
  users,
  state,
  stateAt,
}: {
  users: UserInfo[];
  state: ConsoleStateEvent | undefined;
  stateAt: number;
}) {
  const [copied, setCopied] = useState('');
  return (
    <section class="panel" aria-labelledby="users-title">
      <h2 id="users-title">
        Users <DocLink page="channels.md" what="users, their tokens and subscriptions" />
      </h2>
      <table id="users-table">
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Token</th>
            <th scope="col" title="open WebSocket / STOMP sessions">
              Sessions
            </th>
            <th scope="col" title="long polls held now">
              Polls
            </th>
            <th scope="col" title="messages queued for the listen long poll">
              Queue
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const live = state?.users[user.key];
            return (
              <tr key={user.key} data-user={user.key}>
                <td title={`${user.name}: ${user.channels.join(', ')}`}>{user.key}</td>
                <td class="token">
                  <code>{user.token}</code>{' '}
                  <button
                    type="button"
                    class="small"
                    aria-label={`Copy the token of ${user.key}`}
                    onClick={() => void copy(user.token).then((ok) => setCopied(ok ? user.key : ''))}
                  >
                    {copied === user.key ? 'Copied' : 'Copy'}
                  </button>
                </td>
                <td class="num" data-field="sockets">
                  {live?.sockets ?? 0}
                </td>
                <td class="num" data-field="heldPolls">
                  {live?.heldPolls ?? 0}
                </td>
                <td
                  class="num"
                  data-field="queueDepth"
                  title="Waiting for a poll; + written to a poll, not yet shown read by the client"
                >
                  {live?.queueDepth ?? 0}
                  {(live?.unconfirmed ?? 0) > 0 && ` +${live?.unconfirmed}`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {state && (
        <p class="meta">
          {state.store && `${state.store.events} stored events (last eventId ${state.store.lastEventId}) · `}
          {state.queues && `${state.queues.messages} queued messages · `}
          journal {state.journal.entries}/{state.journal.max} · simulator time{' '}
          <SimTime time={state.time} at={stateAt} />
        </p>
      )}
    </section>
  );
}
