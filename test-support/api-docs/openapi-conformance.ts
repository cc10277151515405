import type Ajv from 'ajv';
import { deref, pointer, resolvePointer } from './json-pointer';
import { operationsOf, type DocOperation, type DocResponse, type DocShape } from './openapi-model';
import { describeErrors, documentAjv } from './schema-ajv';

const DOC_ID = 'urn:racedata:served-openapi';

/** A real answer as any client saw it: fetch, node:http, or a WebSocket handshake. */
export interface Observed {
  readonly status: number;
  /** A response header by name, case-insensitively; undefined when absent. */
  header(name: string): string | undefined;
  readonly text: string;
}

export function fromFetch(res: Response, text: string): Observed {
  return { status: res.status, header: (name) => res.headers.get(name) ?? undefined, text };
}

export function fromNodeHeaders(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
): Observed {
  return {
    status,
    header: (name) => {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    text,
  };
}

interface Route {
  readonly template: string;
  readonly pattern: RegExp;
  readonly literal: boolean;
}

function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * Holds real answers against a served OpenAPI document: each must be an operation and status
 * the document lists, with the headers it says are always there, and a body (and content type)
 * its schema accepts. Records which operation and status pairs were seen, so a test can fail on
 * a documented answer that nothing exercised.
 */
export class OpenApiConformance {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  /** Base paths of the document's servers other than `/` (a sandbox's /sandboxes/{id}). */
  private readonly bases: RegExp[];
  private readonly seen = new Set<string>();
  private readonly validators = new Map<string, ReturnType<Ajv['compile']>>();

  constructor(readonly doc: DocShape) {
    this.ajv = documentAjv(doc, DOC_ID, '2020-12');
    this.routes = Object.keys(doc.paths).map((template) => ({
      template,
      literal: !template.includes('{'),
      pattern: new RegExp(`^${templatePattern(template)}$`),
    }));
    this.bases = (doc.servers ?? [])
      .map((server) => server.url.replace(/\/$/, ''))
      .filter((url) => url.startsWith('/'))
      .map((url) => new RegExp(`^${templatePattern(url)}(?=/)`));
  }

  /** `METHOD template status` of every documented answer. */
  documented(): string[] {
    return operationsOf(this.doc).flatMap(({ path, method, op }) =>
      Object.keys(op.responses).map((status) => answerKey(method, path, status)),
    );
  }

  /** Documented answers never seen and not excused by the allow-list. */
  unexercised(allowed: Readonly<Record<string, string>>): string[] {
    return this.documented().filter((key) => !this.seen.has(key) && !(key in allowed));
  }

  /** Allow-list entries that name nothing documented, or an answer that was seen after all. */
  staleAllowances(allowed: Readonly<Record<string, string>>): string[] {
    const documented = new Set(this.documented());
    return Object.keys(allowed).filter((key) => !documented.has(key) || this.seen.has(key));
  }

  /** The template a concrete path belongs to: a literal path first, else one with parameters. */
  templateOf(path: string): string | undefined {
    let bare = path.split('?')[0] as string;
    for (const base of this.bases) bare = bare.replace(base, '');
    const literal = this.routes.find((r) => r.literal && r.template === bare);
    return (literal ?? this.routes.find((r) => !r.literal && r.pattern.test(bare)))?.template;
  }

  /**
   * Throws, saying what differs, unless the answer is documented for this operation. On a 2xx
   * answer, the JSON request body sent (if given) must match the documented request body too.
   * Returns the body as parsed for its content type.
   */
  check(method: string, path: string, observed: Observed, requestJson?: unknown): unknown {
    const m = method.toLowerCase();
    const template = this.templateOf(path);
    const op =
      template === undefined ? undefined : (this.doc.paths[template]?.[m] as DocOperation | undefined);
    const what = `${method.toUpperCase()} ${path} -> ${observed.status}`;
    if (template === undefined || op === undefined)
      throw new Error(`${what}: no such operation in the document`);
    const status = String(observed.status);
    if (!(status in op.responses)) {
      throw new Error(
        `${what}: status not documented (documented: ${Object.keys(op.responses).join(', ')}); body ${excerpt(observed.text)}`,
      );
    }
    const at = this.responsePointer(pointer('paths', template, m, 'responses', status));
    const response = deref<DocResponse>(this.doc, resolvePointer(this.doc, at) as DocResponse);
    this.checkHeaders(what, at, response, observed);
    const body = this.checkBody(what, at, response, observed, m === 'head');
    if (requestJson !== undefined && observed.status < 300)
      this.checkRequest(what, template, m, op, requestJson);
    this.seen.add(answerKey(m, template, status));
    return body;
  }

  private responsePointer(at: string): string {
    let here = at;
    for (let value = resolvePointer(this.doc, here); isRef(value); value = resolvePointer(this.doc, here)) {
      here = value.$ref;
    }
    return here;
  }

  private checkHeaders(what: string, at: string, response: DocResponse, observed: Observed): void {
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = observed.header(name);
      if (value === undefined) {
        if (header.required) throw new Error(`${what}: required header ${name} is missing`);
        continue;
      }
      this.validate(`${what}: header ${name}`, `${at}/headers/${escape(name)}/schema`, value);
    }
  }

  private checkBody(
    what: string,
    at: string,
    response: DocResponse,
    observed: Observed,
    head: boolean,
  ): unknown {
    const content = response.content;
    if (content === undefined || head) {
      if (observed.text !== '')
        throw new Error(`${what}: documented without a body, got ${excerpt(observed.text)}`);
      return undefined;
    }
    const contentType = observed.header('content-type') ?? '';
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const key =
      mediaType in content
        ? mediaType
        : Object.keys(content).find(
            (k) => k === '*/*' || (k.endsWith('/*') && mediaType.startsWith(k.slice(0, -1))),
          );
    if (key === undefined) {
      throw new Error(
        `${what}: content type "${contentType}" not documented (${Object.keys(content).join(', ')})`,
      );
    }
    let body: unknown = observed.text;
    if (isJson(mediaType)) {
      try {
        body = JSON.parse(observed.text);
      } catch {
        throw new Error(`${what}: body is not JSON: ${excerpt(observed.text)}`);
      }
    }
    this.validate(`${what}: body`, `${at}/content/${escape(key)}/schema`, body);
    return body;
  }

  private checkRequest(
    what: string,
    template: string,
    method: string,
    op: DocOperation,
    json: unknown,
  ): void {
    if (!op.requestBody?.content['application/json']) return;
    const at = pointer('paths', template, method, 'requestBody', 'content', 'application/json', 'schema');
    this.validate(`${what}: the accepted request body`, at, json);
  }

  private validate(what: string, at: string, value: unknown): void {
    let validate = this.validators.get(at);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}${at}` });
      this.validators.set(at, validate);
    }
    if (!validate(value)) {
      throw new Error(
        `${what} does not match ${at}: ${describeErrors(this.ajv, validate.errors)}; got ${excerpt(JSON.stringify(value))}`,
      );
    }
  }
}

export function answerKey(method: string, template: string, status: string | number): string {
  return `${method.toUpperCase()} ${template} ${status}`;
}

function isRef(value: unknown): value is { $ref: string } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string'
  );
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function templatePattern(template: string): string {
  return template
    .split(/\{[^}]+\}/)
    .map(escapeRegExp)
    .join('[^/]+');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
}

function excerpt(text: string | undefined): string {
  const t = text ?? '';
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}
