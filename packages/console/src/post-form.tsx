import { useEffect, useState } from 'preact/hooks';
import { ApiError, baseUrl, postRaw, shellQuote, simulatorKind } from './api';
import { jsonProblem, xmlProblem } from './format';
import type { CatalogChannel } from '../../control/src/wire';
import { DocLink } from './doc-link';

/** The legacy injection's pseudo-channel: every user gets the message. */
const EVERY_USER = 'id';

function jsonBodyFor(channel: CatalogChannel | undefined): string {
  const today = new Date().toISOString().slice(0, 10);
  const message =
    channel?.sample && 'message' in channel.sample
      ? channel.sample.message
      : { channel: channel?.name ?? '', date: today, payload: {} };
  return JSON.stringify(message, null, 2);
}

function xmlBodyFor(channel: CatalogChannel | undefined): string {
  if (channel?.sample && 'xml' in channel.sample) return channel.sample.xml;
  return `<${channel?.name ?? 'Message'} date="${new Date().toISOString().slice(0, 10)}"/>`;
}

interface Outcome {
  ok: boolean;
  text: string;
  /** The simulator's word that no user subscribed to the channel is connected now. */
  notice?: string | undefined;
}

/**
 * Posts a message through the simulator's own customer endpoint, pre-filled with a recorded
 * message of the chosen channel. The body is checked here first (JSON parses, XML is well
 * formed) so a broken body is never sent; what the server refuses is shown next to the field.
 */
export function PostForm({ catalog }: { catalog: CatalogChannel[] }) {
  const legacy = simulatorKind === 'legacy';
  const [channelName, setChannelName] = useState('');
  const [body, setBody] = useState('');
  const [payloadKey, setPayloadKey] = useState('');
  const [delivery, setDelivery] = useState<'Durable' | 'NonDurable'>('Durable');
  const [problem, setProblem] = useState('');
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  // A new catalog or channel choice loads that channel's sample.
  useEffect(() => {
    if (!channelName && catalog[0]) setChannelName(catalog[0].name);
  }, [catalog, channelName]);
  useEffect(() => {
    if (!channelName) return;
    const chosen = catalog.find((c) => c.name === channelName);
    setBody(legacy ? xmlBodyFor(chosen) : jsonBodyFor(chosen));
    if (chosen?.sample && 'payloadKey' in chosen.sample) setPayloadKey(chosen.sample.payloadKey);
    if (chosen) setDelivery(chosen.kind === 'durable' ? 'Durable' : 'NonDurable');
    setProblem('');
    setOutcome(undefined);
  }, [channelName, catalog, legacy]);

  const target = legacy
    ? `/customerapi/channel/${encodeURIComponent(channelName || EVERY_USER)}/${delivery}${
        payloadKey ? `?payloadKey=${encodeURIComponent(payloadKey)}` : ''
      }`
    : '/api/message';
  const contentType = legacy ? 'application/xml' : 'application/json';
  const curl = `curl -X POST ${shellQuote(baseUrl + target)} -H 'Content-Type: ${contentType}' --data-binary ${shellQuote(body)}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    const why = legacy ? xmlProblem(body) : jsonProblem(body);
    setProblem(why ?? '');
    setOutcome(undefined);
    if (why) return;
    setBusy(true);
    try {
      const answer = await postRaw<Record<string, unknown>>(target, contentType, body);
      setOutcome({ ok: true, text: describe(answer.body), notice: answer.notice });
    } catch (err) {
      setOutcome({
        ok: false,
        text: err instanceof ApiError ? `${err.status}: ${err.message}` : String(err),
      });
    } finally {
      setBusy(false);
    }
  };

  const refused = outcome && !outcome.ok;
  return (
    <form class="panel post" onSubmit={(e) => void submit(e)} aria-labelledby="post-title" noValidate>
      <h2 id="post-title">
        Post a message <DocLink page="channels.md" what="channels, payloads and who receives a post" />
      </h2>
      <label>
        Channel
        <select id="post-channel" value={channelName} onChange={(e) => setChannelName(e.currentTarget.value)}>
          {legacy && <option value={EVERY_USER}>id (every user)</option>}
          {catalog.map((c) => (
            <option value={c.name}>
              {c.name} ({c.kind})
            </option>
          ))}
        </select>
      </label>
      {legacy && (
        <div class="row">
          <fieldset>
            <legend>Delivery</legend>
            {(['Durable', 'NonDurable'] as const).map((d) => (
              <label class="inline">
                <input
                  type="radio"
                  name="delivery"
                  value={d}
                  checked={delivery === d}
                  onChange={() => setDelivery(d)}
                />
                {d}
              </label>
            ))}
          </fieldset>
          <label>
            payloadKey
            <input
              id="post-payload-key"
              value={payloadKey}
              onInput={(e) => setPayloadKey(e.currentTarget.value)}
            />
          </label>
        </div>
      )}
      <label for="post-body">{legacy ? 'XML document' : 'Message (POST /api/message body)'}</label>
      <textarea
        id="post-body"
        rows={10}
        spellcheck={false}
        value={body}
        aria-invalid={problem !== '' || refused}
        aria-describedby="post-problem"
        onInput={(e) => {
          setBody(e.currentTarget.value);
          setProblem('');
        }}
      />
      <p id="post-problem" class="error" role="alert">
        {problem || (refused ? outcome.text : '')}
      </p>
      <div class="row">
        <button type="submit" id="post-submit" disabled={busy}>
          {busy ? 'Posting…' : 'Post'}
        </button>
        {outcome?.ok && (
          <span id="post-result" class="ok" role="status">
            {outcome.text}
          </span>
        )}
      </div>
      {outcome?.ok && outcome.notice && (
        <p id="post-notice" class="notice" role="status">
          {outcome.notice}
        </p>
      )}
      <details>
        <summary>Equivalent curl command</summary>
        <pre id="post-curl" class="curl">
          {curl}
        </pre>
        <button
          type="button"
          class="small"
          onClick={() => void navigator.clipboard?.writeText(curl).catch(() => undefined)}
        >
          Copy curl
        </button>
      </details>
    </form>
  );
}

function describe(answer: Record<string, unknown>): string {
  const data = answer.data as
    { event?: { eventId?: number }; recipients?: number; queued?: number } | undefined;
  if (data?.event?.eventId !== undefined) return `stored as eventId ${data.event.eventId}`;
  if (data?.queued !== undefined) return `queued for ${data.queued} user(s)`;
  if (data?.recipients !== undefined) return `sent to ${data.recipients} session(s)`;
  return 'posted';
}
