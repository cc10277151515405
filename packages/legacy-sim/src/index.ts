export { createLegacySimulator, type LegacySimulatorDeps } from './simulator';
export { LEGACY_CHANNELS, LEGACY_DESCRIPTION, LEGACY_USERS, legacyChannelCatalog } from './description';
export type { LegacySimulatorProbe } from './probe';
export {
  EVERY_USER_CHANNEL,
  LegacyBus,
  type LegacyDelivery,
  type LegacyPublishInput,
  type LegacyPublishResult,
  type TransientXmlMessage,
} from './legacy-bus';
export { legacySimErrors, legacySimError, type LegacySimErrorCode } from './errors';
export { assertWellFormedXml } from './xml-check';
export {
  DEFAULT_STOMP_OPTIONS,
  PUBLISH_DESTINATIONS,
  STOMP_PATHS,
  type StompOptions,
} from './stomp/stomp-options';
export type { HeartBeatOffer } from './stomp/stomp-negotiation';
export type { StompParserLimits } from '@racedata/core';
