export { createJsonSimulator, EVENT_STREAM_PATH } from './simulator';
export type { JsonSimulator, JsonSimulatorDeps } from './simulator';
export { jsonSimErrors } from './errors';
export type { JsonSimErrorCode } from './errors';
