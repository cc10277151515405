/**
 * racedata-sim's test kit: the simulators in-process (startSimulators), a typed client for any
 * running simulator's control plane (ControlClient), and its errors and wire types. The
 * Testcontainers module is a separate entry point (racedata-sim/testcontainers), so this one
 * needs no container library.
 */
export {
  startSimulators,
  type ReplayOptions,
  type RunningSimulators,
  type SimulatorChoice,
  type StartOptions,
} from './start-simulators';
export { ControlClient, type ControlClientOptions } from './control-client';
export type { ControlPair, PerSimulator } from './control-pair';
export type { Sandbox } from './sandbox';
export {
  ControlError,
  JournalWaitTimeoutError,
  testkitErrors,
  type ControlErrorCode,
  type RequestTarget,
  type TestkitErrorCode,
} from './errors';
export type * from './control-types';
