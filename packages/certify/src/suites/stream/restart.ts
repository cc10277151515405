import { sessionRestartScenario } from '../session/restart';

/** The simulator goes away 5 s and comes back: the client must be back with a new session. */
export const restartScenario = sessionRestartScenario({ suite: 'stream', transport: 'event-stream' });
