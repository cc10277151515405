/**
 * racedata-sim/testcontainers: the simulator images as a Testcontainers module. It imports the
 * `testcontainers` package, which the caller installs (npm install -D testcontainers); the main
 * entry point (racedata-sim) does not need it.
 */
export {
  RaceDataSimulatorContainer,
  CONTAINER_PATHS,
  SIMULATOR_PORTS,
  type ChannelsCatalog,
  type ContainerSettings,
  type UsersTable,
} from './simulator-container';
export { StartedRaceDataSimulatorContainer } from './started-simulator-container';
export {
  JsonSimulatorContainer,
  LegacySimulatorContainer,
  SIMULATOR_IMAGES,
  StartedJsonSimulatorContainer,
  StartedLegacySimulatorContainer,
} from './simulator-images';
export { RACEDATA_SIM_VERSION } from '../version';
export { ControlClient, type ControlClientOptions } from '../control-client';
export { JsonControlClient } from '../json-control-client';
export { LegacyControlClient } from '../legacy-control-client';
export { ControlError, JournalWaitTimeoutError } from '../errors';
export type { SimulatorUser } from '../control-types';
