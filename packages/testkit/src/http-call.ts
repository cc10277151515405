import {
  ControlError,
  errorFromAnswer,
  errorFromFailure,
  unexpectedAnswer,
  type RequestTarget,
} from './errors';

/** One request as the control client describes it. */
export interface HttpCall {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Starts with `/`; appended to the base URL, which may carry a path of its own (a sandbox). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  /** Sent as application/json. */
  readonly json?: unknown;
  /** Sent as is, with `contentType`. */
  readonly body?: string;
  readonly contentType?: string;
  /** Add the control token: /_sim/* and /metrics need it, the customer endpoints never see it. */
  readonly control: boolean;
  /** Longer than the client's default, for a request the server holds on purpose (journal wait). */
  readonly timeoutMs?: number;
}

export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly text: string;
  readonly target: RequestTarget;
}

export interface HttpSettings {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly requestTimeoutMs: number;
  readonly fetch: typeof fetch;
}

export function urlOf(baseUrl: string, call: Pick<HttpCall, 'path' | 'query'>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const query = params.toString();
  return `${baseUrl}${call.path}${query ? `?${query}` : ''}`;
}

/**
 * Sends the call and reads the whole answer; a missing answer becomes a ControlError, and so does
 * a redirect: it is never followed, since the control token would go along to wherever it points
 * (same origin included: the simplest rule to trust).
 */
export async function send(settings: HttpSettings, call: HttpCall): Promise<HttpAnswer> {
  const target = { method: call.method, url: urlOf(settings.baseUrl, call) };
  const headers: Record<string, string> = {};
  if (call.control && settings.token !== undefined) headers.authorization = `Bearer ${settings.token}`;
  let body: string | undefined;
  if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.json);
  } else if (call.body !== undefined) {
    headers['content-type'] = call.contentType ?? 'text/plain; charset=utf-8';
    body = call.body;
  }
  const timeoutMs = call.timeoutMs ?? settings.requestTimeoutMs;
  let res: Response;
  try {
    res = await settings.fetch(target.url, {
      method: call.method,
      headers,
      ...(body !== undefined && { body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.status < 300 || res.status >= 400) {
      return { status: res.status, statusText: res.statusText, text: await res.text(), target };
    }
    await res.body?.cancel();
  } catch (err) {
    throw errorFromFailure(target, err, timeoutMs);
  }
  const location = res.headers.get('location') ?? 'nowhere';
  throw new ControlError(
    res.status,
    'REDIRECT_REFUSED',
    `${target.method} ${target.url} answered ${res.status} to ${location}: not followed (the control client follows no redirect; give the simulator's own URL)`,
    target,
  );
}

/** The answer's JSON when its status is one of `ok`; the server's error as a ControlError otherwise. */
export function expectJson<T>(answer: HttpAnswer, ok: readonly number[] = [200]): T {
  if (!ok.includes(answer.status)) {
    throw errorFromAnswer(answer.target, answer.status, answer.statusText, answer.text);
  }
  try {
    return JSON.parse(answer.text) as T;
  } catch (err) {
    throw unexpectedAnswer(answer.target, answer.status, answer.text, err);
  }
}

/** The answer's text when its status is one of `ok`. */
export function expectText(answer: HttpAnswer, ok: readonly number[] = [200]): string {
  if (!ok.includes(answer.status)) {
    throw errorFromAnswer(answer.target, answer.status, answer.statusText, answer.text);
  }
  return answer.text;
}
