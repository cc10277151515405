import type { CertificationCheck, CertificationState, CertificationTimings } from '../../control/src/wire';
import { clockTime } from './format';
import './certification.css';
import { DocLink } from './doc-link';

/** Where the certification is, in the words the terminal uses. */
export function certificationLine(c: CertificationState): string {
  switch (c.phase) {
    case 'waiting':
      return c.attached ? 'waiting for a client started by hand' : 'waiting for the client';
    case 'playing':
      return c.scenario === undefined ? 'client ready' : `playing "${c.scenario}"`;
    case 'finished':
      return `finished: ${c.passed} passed, ${c.failed} failed`;
    case 'aborted':
      return `aborted: ${c.aborted ?? 'ended early'}`;
  }
}

function timingsLine(t: CertificationTimings): string {
  return (
    `long-poll timeout ${t.longPollTimeoutMs} ms, ping interval ${t.pingIntervalMs} ms, ` +
    `token deadline ${t.authTimeoutMs} ms, token lifetime ${t.tokenTtlSeconds} s, ` +
    `STOMP heart-beat ${t.stompHeartBeatMs} ms`
  );
}

/**
 * The status in words (colour only repeats it): a pending check of the scenario playing now is
 * `playing`, a failure listed in --expected-failures `fail (expected)`.
 */
function statusWord(check: CertificationCheck, playing: string | undefined): string {
  if (check.status === 'pending') return check.scenario === playing ? 'playing' : 'pending';
  return check.expectedFailure ? `${check.status} (expected)` : check.status;
}

function CheckRow({ check, playing }: { check: CertificationCheck; playing: string | undefined }) {
  const word = statusWord(check, playing);
  return (
    <tr data-check={check.id} data-status={check.status}>
      <td>
        <code>{check.id}</code>
        <div class="cert-sub">
          {check.required ? 'required' : 'optional'} · {check.scenario}
        </div>
      </td>
      <td class={`cert-status cert-${check.status === 'pending' ? word : check.status}`}>{word}</td>
      <td class="cert-summary">
        {check.summary}
        {check.evidence.length > 0 && (
          <details class="cert-evidence">
            <summary>Evidence ({check.evidence.length})</summary>
            <ol>
              {check.evidence.map((e, i) => (
                <li key={i}>
                  <time dateTime={e.at}>{e.at === '' ? '' : clockTime(e.at)}</time> {e.what}
                </li>
              ))}
            </ol>
          </details>
        )}
      </td>
    </tr>
  );
}

/**
 * The certification this simulator serves (racedata-sim certify), live from the stream's state:
 * which suite and client, the timings, where it is, and each check as it is graded.
 */
export function CertificationPanel({ certification: c }: { certification: CertificationState }) {
  const playing = c.phase === 'playing' ? c.scenario : undefined;
  const graded = c.checks.filter((check) => check.status !== 'pending').length;
  return (
    <section class="panel cert" id="certification" aria-labelledby="cert-title">
      <h2 id="cert-title">
        Certification <span class="cert-suite">{c.suite}</span>{' '}
        <DocLink page="certify.md#watching-a-certification-in-the-console" what="certification" />
      </h2>
      <p id="cert-state" class={`cert-state cert-phase-${c.phase}`} role="status">
        {certificationLine(c)}
      </p>
      <dl class="cert-facts">
        <dt>Client</dt>
        <dd id="cert-client">
          <code>{c.client}</code>
          {c.clientReadyAfterMs !== undefined && ` (first request after ${c.clientReadyAfterMs} ms)`}
        </dd>
        <dt>Timings</dt>
        <dd id="cert-timings">{timingsLine(c.timings)}</dd>
        <dt>Checks</dt>
        <dd>
          {graded} of {c.checks.length} graded
        </dd>
        {c.foreign !== undefined && c.foreign.count > 0 && (
          <>
            <dt>Foreign traffic</dt>
            <dd id="cert-foreign">
              {c.foreign.count} request(s) or upgrade(s) not from the certified client, not graded
              <details class="cert-evidence">
                <summary>The first {c.foreign.sample.length}</summary>
                <ol>
                  {c.foreign.sample.map((e, i) => (
                    <li key={i}>
                      <time dateTime={e.at}>{clockTime(e.at)}</time> {e.what}
                    </li>
                  ))}
                </ol>
              </details>
            </dd>
          </>
        )}
      </dl>
      <table id="cert-checks">
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Status</th>
            <th scope="col">Summary</th>
          </tr>
        </thead>
        <tbody>
          {c.checks.map((check) => (
            <CheckRow key={check.id} check={check} playing={playing} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
