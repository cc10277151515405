export { createJsonSimulator, EVENT_STREAM_PATH } from './simulator';
export { JSON_CHANNELS, JSON_DESCRIPTION, JSON_USERS, jsonChannelCatalog } from './description';
export type { JsonSimulatorDeps } from './simulator';
export type { JsonSimulatorProbe } from './probe';
export type { JsonSeeder, SeedResult } from './seed/seed-events';
export type { PublishResult } from './channel-bus';
export type { StoredEvent } from './store/types';
export { jsonSimErrors } from './errors';
export type { JsonSimErrorCode } from './errors';
