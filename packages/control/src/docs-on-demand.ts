/* eslint-disable @typescript-eslint/no-require-imports */
// The OpenAPI builder and the schemas of every control route load with the first document a
// simulator builds (core's docsOnDemand: the first GET of /_sim/openapi.json or asyncapi.json),
// not with the control plane at every start.
import type * as Docs from './docs/index';

export type { OpenApiInput } from './docs/openapi-document';
export type { ControlStateShape } from './docs/control-paths';

const docs = () => require('./docs/index') as typeof Docs;

export const buildOpenApiDocument: typeof Docs.buildOpenApiDocument = (input) =>
  docs().buildOpenApiDocument(input);

export const payloadSchemaComponents: typeof Docs.payloadSchemaComponents = () =>
  docs().payloadSchemaComponents();
