export { createJsonSimulator, EVENT_STREAM_PATH } from './simulator';
export type { JsonSimulator, JsonSimulatorDeps } from './simulator';
export type { StoredEvent } from './store/types';
export { jsonSimErrors } from './errors';
export type { JsonSimErrorCode } from './errors';
