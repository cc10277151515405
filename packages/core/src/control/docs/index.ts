export * from './json-schema';
export * from './openapi-types';
export * from './asyncapi-types';
export * from './docs-context';
export { controlError, jsonContent, responseRef, SHARED_RESPONSES } from './error-schemas';
export { buildOpenApiDocument, type OpenApiInput } from './openapi-document';
export type { ControlStateShape } from './control-paths';
export { SENDABLE_CLOSE_CODE } from './fault-schemas';
export { BAD_HANDSHAKE, switchingProtocols, UPGRADE_HEADERS } from './upgrade-operation';
