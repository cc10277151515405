/**
 * racedata-sim/testcontainers: the simulator images as a Testcontainers module. It imports the
 * `testcontainers` package, which the caller installs (npm install -D testcontainers); the main
 * entry point (racedata-sim) does not need it.
 */
export {
  RaceDataSimulatorContainer,
  StartedRaceDataSimulatorContainer,
  SIMULATOR_IMAGES,
  SIMULATOR_PORTS,
  type ContainerSettings,
} from './simulator-container';
export { ControlClient, type ControlClientOptions } from '../control-client';
export { ControlError, JournalWaitTimeoutError } from '../errors';
