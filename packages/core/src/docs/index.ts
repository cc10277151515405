export * from './json-schema';
export * from './openapi-types';
export * from './asyncapi-types';
export * from './docs-context';
export {
  CONTROL_ACCESS_ERRORS,
  CONTROL_BODY_ERRORS,
  controlError,
  ERROR_COMPONENTS,
  jsonContent,
  responseRef,
  SHARED_RESPONSES,
} from './error-schemas';
export { BAD_HANDSHAKE, switchingProtocols, UPGRADE_HEADERS } from './upgrade-operation';
