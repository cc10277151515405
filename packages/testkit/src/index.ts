/**
 * racedata-sim's test kit: the simulators in-process (startSimulators), typed clients for any
 * running simulator's control plane (JsonControlClient, LegacyControlClient and their shared
 * base ControlClient), and their errors and wire types. The Testcontainers module is a separate
 * entry point (racedata-sim/testcontainers), so this one needs no container library.
 */
export {
  startSimulators,
  type ReplayOptions,
  type RunningSimulators,
  type SimulatorChoice,
  type StartOptions,
} from './start-simulators';
export { ControlClient, type ControlClientOptions } from './control-client';
export { JsonControlClient, EVENT_STREAM_PATH } from './json-control-client';
export { LegacyControlClient, STOMP_PATH } from './legacy-control-client';
export type { ControlPair, PerSimulator, RaceDayPairSteering, SandboxPair } from './control-pair';
export type { ActionArgs, RaceDayActions, RaceDaySteering } from './race-day-steering';
export type { Sandbox } from './control-client';
export { RACEDATA_SIM_VERSION } from './version';
export {
  ControlError,
  JournalWaitTimeoutError,
  testkitErrors,
  type ControlErrorCode,
  type RequestTarget,
  type TestkitErrorCode,
} from './errors';
export type * from './control-types';
export { certify, type CertifyClientOptions, type CertifyReport } from './certify-client';
export { CertifyError, type CheckResult, type CheckStatus, type Evidence } from '@racedata/certify';
