import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

// The root package's `exports`, as Node resolves a package's own name from inside it
// (self-reference): what an example or a user's suite gets from `racedata-sim`. It runs the
// built output, which `npm test` builds first.
const root = path.resolve(__dirname, '..', '..', '..');
const run = promisify(execFile);

async function node(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, args, { cwd: root, timeout: 15_000 });
  return JSON.parse(stdout) as unknown;
}

const SCRIPT = `
  const sims = await startSimulators();
  const health = (await Promise.all([sims.json.health(), sims.legacy.health()])).map(
    ({ status, simulator }) => ({ status, simulator }),
  );
  await sims.close();
  console.log(JSON.stringify({
    health,
    client: typeof ControlClient,
    container: typeof RaceDataSimulatorContainer,
    controlErrorIsError: new ControlError(0, 'X', 'm', { method: 'GET', url: '' }) instanceof Error,
  }));
`;

const EXPECTED = {
  health: [
    { status: 'ok', simulator: 'json' },
    { status: 'ok', simulator: 'legacy' },
  ],
  client: 'function',
  container: 'function',
  controlErrorIsError: true,
};

describe('the racedata-sim package exports', () => {
  test('require() of racedata-sim and racedata-sim/testcontainers', async () => {
    const cjs = `
      const { startSimulators, ControlClient, ControlError } = require('racedata-sim');
      const { RaceDataSimulatorContainer } = require('racedata-sim/testcontainers');
      (async () => { ${SCRIPT} })().catch((e) => { console.error(e); process.exit(1); });`;
    expect(await node(['-e', cjs])).toEqual(EXPECTED);
  });

  test('import of racedata-sim and racedata-sim/testcontainers (ESM)', async () => {
    const esm = `
      import { startSimulators, ControlClient, ControlError } from 'racedata-sim';
      import { RaceDataSimulatorContainer } from 'racedata-sim/testcontainers';
      ${SCRIPT}`;
    expect(await node(['--input-type=module', '-e', esm])).toEqual(EXPECTED);
  });

  test('the command is still the bin', async () => {
    const manifest = (await node([
      '-p',
      'JSON.stringify(require("racedata-sim/package.json").bin)',
    ])) as object;
    expect(manifest).toEqual({ 'racedata-sim': 'packages/cli/bin/racedata-sim.js' });
  });
});
