/**
 * Where the containers under test are. scripts/test-images.sh and scripts/test-compose.sh start
 * them and hand their URLs to jest in the environment, with RACEDATA_IMAGES=1 to say the suite
 * must run. Without that (a plain `npm test`) every block here is skipped, saying why; with it,
 * a missing URL is a broken harness and fails instead of passing with nothing tested.
 */

/** The environment variables the image suites read; test-images.sh and test-compose.sh set them. */
export const IMAGE_ENV = {
  /** `docker run` with no settings, port 3000 mapped. */
  json: 'RACEDATA_IMAGE_JSON_URL',
  legacy: 'RACEDATA_IMAGE_LEGACY_URL',
  /** PORT=4000, LONG_POLL_TIMEOUT_MS=500, AUTO_REPLAY_MESSAGE_INTERVAL=100, recordings mounted. */
  jsonReplay: 'RACEDATA_IMAGE_JSON_REPLAY_URL',
  /** AUTO_REPLAY_MESSAGE_INTERVAL=100, recordings mounted. */
  legacyReplay: 'RACEDATA_IMAGE_LEGACY_REPLAY_URL',
  /** LONG_POLL_TIMEOUT_MS=500. */
  legacyShortPoll: 'RACEDATA_IMAGE_LEGACY_SHORT_POLL_URL',
  /** The text every message of the mounted recordings carries. */
  replayNonce: 'RACEDATA_IMAGE_REPLAY_NONCE',
  /** Written once the held connections are open; the harness then stops the containers. */
  stopReadyFile: 'RACEDATA_IMAGE_STOP_READY_FILE',
  /** docker/compose.yaml's services on their host ports. */
  composeJson: 'RACEDATA_COMPOSE_JSON_URL',
  composeLegacy: 'RACEDATA_COMPOSE_LEGACY_URL',
} as const;

type ImageVar = keyof typeof IMAGE_ENV;

const HOW = 'npm run test:images builds the images, starts the containers and sets it';

/**
 * describe() for tests against running containers: `body` gets the values of `needs`. Without
 * them it is skipped, saying which are missing, unless RACEDATA_IMAGES=1 says the harness meant
 * to set them: then it fails.
 */
export function describeImages<K extends ImageVar>(
  title: string,
  needs: readonly K[],
  body: (given: Record<K, string>) => void,
): void {
  const given = {} as Record<K, string>;
  const missing: string[] = [];
  for (const key of needs) {
    const value = process.env[IMAGE_ENV[key]];
    if (value) given[key] = value;
    else missing.push(IMAGE_ENV[key]);
  }
  if (missing.length === 0) {
    describe(title, () => {
      // Containers on a shared machine, replays of 100 ms a message: slower than in-process.
      jest.setTimeout(60_000);
      body(given);
    });
    return;
  }
  const why = `${missing.join(', ')} not set (${HOW})`;
  if (process.env.RACEDATA_IMAGES === '1') {
    describe(title, () => {
      test('the harness gave the containers’ URLs', () => {
        throw new Error(`RACEDATA_IMAGES=1 but ${why}`);
      });
    });
    return;
  }
  // A skipped block's title only shows with --verbose; this line shows in every run.
  // eslint-disable-next-line no-console
  console.warn(`${title}: skipped, ${why}`);
  describe.skip(`${title} (skipped: ${why})`, () => {
    test('needs the running containers', () => undefined);
  });
}
