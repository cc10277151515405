import type { Config } from 'jest';

const packages = [
  'core',
  'race-day',
  'control',
  'recorder',
  'certify',
  'legacy-sim',
  'json-sim',
  'testkit',
  'cli',
];

// One project per package; @racedata/* resolves to sources so tests never need a prior build.
const packageProjects = packages.map((name) => ({
  displayName: name,
  testEnvironment: 'node',
  // The same property-test draws on every CI run (test-support/fast-check-seed.ts).
  setupFiles: ['<rootDir>/test-support/fast-check-seed.ts'],
  roots: [`<rootDir>/packages/${name}/test`],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  moduleNameMapper: {
    '^@racedata/(core|race-day|control|recorder|certify|legacy-sim|json-sim|testkit|cli)$':
      '<rootDir>/packages/$1/src/index.ts',
    // A simulator's start loads only this part of the race-day package (packages/race-day/src/player.ts).
    '^@racedata/race-day/player$': '<rootDir>/packages/race-day/src/player.ts',
    // The root package's own name, as examples and users import the test kit (package.json exports).
    '^racedata-sim$': '<rootDir>/packages/testkit/src/index.ts',
    '^racedata-sim/testcontainers$': '<rootDir>/packages/testkit/src/testcontainers/index.ts',
    '^@racedata/test-support$': '<rootDir>/test-support/index.ts',
    '^@racedata/test-support/(.*)$': '<rootDir>/test-support/$1',
  },
}));

const config: Config = {
  projects: [
    ...packageProjects,
    {
      ...packageProjects[0],
      // Browser tests of the QA console, against simulators built from sources.
      displayName: 'console',
      roots: ['<rootDir>/packages/console/test'],
    },
    {
      ...packageProjects[0],
      displayName: 'bench',
      roots: ['<rootDir>/bench/test'],
    },
    {
      ...packageProjects[0],
      displayName: 'repo',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/images/'],
    },
    {
      ...packageProjects[0],
      // Black-box tests of the container images: scripts/test-images.sh builds and starts them
      // and runs this project with their URLs; without those its tests skip, saying why.
      displayName: 'images',
      roots: ['<rootDir>/test/images'],
    },
    {
      ...packageProjects[0],
      displayName: 'examples',
      roots: ['<rootDir>/examples'],
    },
  ],
  testTimeout: 20000,
};

export default config;
