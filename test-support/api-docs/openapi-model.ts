/** The parts of a served OpenAPI document the checks read (the document arrives as JSON). */
export interface DocSchemaHolder {
  schema?: unknown;
}

export interface DocResponse {
  description: string;
  headers?: Record<string, DocSchemaHolder & { required?: boolean } & { $ref?: string }>;
  content?: Record<string, DocSchemaHolder>;
}

export interface DocOperation {
  operationId: string;
  parameters?: Array<DocSchemaHolder & { name: string; in: string; required?: boolean }>;
  requestBody?: { required?: boolean; content: Record<string, DocSchemaHolder> };
  responses: Record<string, DocResponse | { $ref: string }>;
  security?: Array<Record<string, string[]>>;
}

export interface DocShape {
  openapi: string;
  info: { version: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, DocOperation | unknown>>;
  components: { schemas?: Record<string, unknown> };
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of the document with its path template and method. */
export function operationsOf(doc: DocShape): Array<{ path: string; method: string; op: DocOperation }> {
  const all: Array<{ path: string; method: string; op: DocOperation }> = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as DocOperation | undefined;
      if (op) all.push({ path, method, op });
    }
  }
  return all;
}

export interface DocOperationAt {
  readonly method: string;
  readonly template: string;
  readonly op: DocOperation;
}

/** The operations a predicate picks, for checks that go over every one of a kind. */
export function operationsWhere(doc: DocShape, pick: (op: DocOperation) => boolean): DocOperationAt[] {
  return operationsOf(doc)
    .filter(({ op }) => pick(op))
    .map(({ path, method, op }) => ({ method, template: path, op }));
}

export const takesBody = (op: DocOperation): boolean => op.requestBody !== undefined;

/** Guarded by CONTROL_TOKEN when it is set: /_sim/* and /metrics. */
export const controlGuarded = (op: DocOperation): boolean =>
  (op.security ?? []).some((requirement) => 'controlToken' in requirement);

/**
 * Runs `check` on each operation in turn and resolves with what failed, one line each, so one
 * broken operation does not hide the others.
 */
export async function sweep(
  ops: readonly DocOperationAt[],
  check: (at: DocOperationAt) => Promise<void>,
): Promise<string[]> {
  const failed: string[] = [];
  for (const at of ops) {
    try {
      await check(at);
    } catch (err) {
      failed.push(`${at.method.toUpperCase()} ${at.template}: ${(err as Error).message}`);
    }
  }
  return failed;
}
