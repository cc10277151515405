import { certificationPaths } from './certification-paths';
import { raceDayPaths } from './race-day-paths';
import { raceDayActionPaths } from './race-day-action-paths';
import { controlPaths, type ControlStateShape } from './control-paths';
import {
  type Components,
  DOCS_VERSION,
  type DocsContext,
  ERROR_COMPONENTS,
  type OpenApiDocument,
  type OpenApiPart,
  type SecurityScheme,
} from '@racedata/core';
import { faultPaths } from './fault-paths';
import { SANDBOX_SERVER, sandboxPaths } from './sandbox-paths';
import { servicePaths } from './service-paths';
import { docsSitePaths } from './docs-site-paths';

export interface OpenApiInput {
  readonly ctx: DocsContext;
  readonly title: string;
  /** What the simulator is; the notes every simulator shares are appended. */
  readonly description: string;
  /** The simulator's production and injection paths and their components. */
  readonly own: OpenApiPart;
  readonly state: ControlStateShape;
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
}

const SHARED_NOTES = `
Every response this simulator gives on purpose is listed under its operation. Not listed:
- 500 with the simulator's error body, for a bug (never on purpose);
- what Node's HTTP server answers itself before any route runs: 400 for a malformed request,
  408 for a request head or body sent too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS),
  431 for oversized headers;
- a path or method with no operation here: 404 with the simulator's error body (HEAD /health is
  answered as GET, without the body);
- answers injected by a fault rule (POST /_sim/faults).

With CONTROL_API=off every /_sim/* path and /metrics answers 404 like an unknown path.`;

const TAGS = [
  { name: 'production', description: 'Paths of the production interface, as simulated' },
  { name: 'simulator', description: 'Simulator-only paths for putting messages in' },
  { name: 'control', description: 'The /_sim/* control plane for test suites' },
  { name: 'service', description: 'Health and metrics' },
];

function mergeInto<T>(
  target: Record<string, T>,
  source: Readonly<Record<string, T>> | undefined,
  what: string,
): void {
  for (const [name, value] of Object.entries(source ?? {})) {
    // Two parts defining one name would silently replace each other's definition.
    if (name in target) throw new Error(`the OpenAPI document defines ${what} "${name}" twice`);
    target[name] = value;
  }
}

/** The simulator's own part plus the shared health, metrics and /_sim/* parts, as one document. */
export function buildOpenApiDocument(input: OpenApiInput): OpenApiDocument {
  const { ctx } = input;
  const parts: OpenApiPart[] = [
    input.own,
    servicePaths(ctx),
    controlPaths(ctx, input.state),
    faultPaths(ctx),
    sandboxPaths(ctx),
    certificationPaths(),
    raceDayPaths(),
    raceDayActionPaths(),
    docsSitePaths(),
    { paths: {}, components: ERROR_COMPONENTS },
  ];
  const paths = {};
  const schemas = {};
  const responses = {};
  const parameters = {};
  for (const part of parts) {
    mergeInto(paths, part.paths, 'path');
    mergeInto(schemas, part.components?.schemas, 'schema');
    mergeInto(responses, part.components?.responses, 'response');
    mergeInto(parameters, part.components?.parameters, 'parameter');
  }
  const components: Components = {
    schemas,
    responses,
    parameters,
    securitySchemes: {
      ...input.securitySchemes,
      controlToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'Needed on /_sim/* and /metrics only when CONTROL_TOKEN is set; the value is that token',
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: input.title,
      version: DOCS_VERSION,
      description: `${input.description}\n${SHARED_NOTES}`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'The simulator serving this document' }, SANDBOX_SERVER],
    tags: TAGS,
    paths,
    components,
  };
}
