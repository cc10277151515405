import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RACEDATA_SIM_VERSION } from 'racedata-sim';
import { SIMULATOR_IMAGES } from 'racedata-sim/testcontainers';

test('the kit’s version is the package’s, and the default images are tagged with it', () => {
  const root = path.resolve(__dirname, '..', '..', '..');
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  expect(RACEDATA_SIM_VERSION).toBe(version);
  expect(SIMULATOR_IMAGES).toEqual({
    json: `racedata/json-sim:${version}`,
    legacy: `racedata/legacy-sim:${version}`,
  });
  // scripts/test-images.sh builds the images under that tag too.
  const script = readFileSync(path.join(root, 'scripts', 'test-images.sh'), 'utf8');
  expect(script).toMatch(/-t "\$1:\$version"/);
});
