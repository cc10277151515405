// Compiled with `tsc --strict` in a project that installed racedata-sim and its optional peer
// testcontainers. Copied there by test/package-install.test.ts.
import { ControlClient } from 'racedata-sim';
import { ControlClient as ContainerClient, JsonSimulatorContainer } from 'racedata-sim/testcontainers';

// One class behind both entry points, so a helper typed with one takes the other's clients.
export const sameClient: typeof ControlClient = ContainerClient;

export async function startAndStop(): Promise<void> {
  // withStartupTimeout is GenericContainer's (testcontainers), withControlToken the module's own.
  const container = new JsonSimulatorContainer().withStartupTimeout(30_000).withControlToken('secret');
  const started = await container.start();
  await started.control.reset();
  await started.stop();
}
