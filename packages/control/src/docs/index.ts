export { buildOpenApiDocument, type OpenApiInput } from './openapi-document';
export type { ControlStateShape } from './control-paths';
export { SENDABLE_CLOSE_CODE } from './fault-schemas';
export { payloadSchemaComponents } from './race-day-paths';
