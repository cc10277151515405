// The code under test of docs/getting-started.md: a consumer of both interfaces, as small as it gets.

export interface Credentials {
  key: string;
  secret: string;
}

export interface RaceEvent {
  eventId: number;
  channel: string;
  payload: unknown;
}

/** Authenticates with key and secret; the token comes back in the `authorization` header. */
export async function authenticate(baseUrl: string, { key, secret }: Credentials): Promise<string> {
  const res = await fetch(`${baseUrl}/customerapi/authenticate/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, secret }),
  });
  if (res.status !== 200) throw new Error(`authenticate answered ${res.status}`);
  return (res.headers.get('authorization') ?? '').replace(/^Bearer /, '');
}

/** One long poll of the JSON interface: the events after lastEventId, none on a 204. */
export async function nextEvents(baseUrl: string, token: string, lastEventId: number): Promise<RaceEvent[]> {
  const res = await fetch(`${baseUrl}/customerapi/events?lastEventId=${lastEventId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status === 204) return [];
  if (res.status !== 200) throw new Error(`events answered ${res.status}`);
  const body = (await res.json()) as { data: { events: RaceEvent[] } };
  return body.data.events;
}

/** One long poll of the legacy interface: the next XML document of the user's queue, if any. */
export async function nextMessage(baseUrl: string, token: string): Promise<string | undefined> {
  const res = await fetch(`${baseUrl}/customerapi/channels/listen`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status === 204) return undefined;
  if (res.status !== 200) throw new Error(`listen answered ${res.status}`);
  return (await res.json()) as string; // a JSON string holding the XML
}
