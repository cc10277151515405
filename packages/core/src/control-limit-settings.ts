import { always, parseInteger, type OptionSpec } from './option-parsers';
import type { SimulatorKind } from './description';

/**
 * The control plane's bounds on what careless clients can hold: waits, console streams and
 * fault rules. Apart from settings.ts only to keep that file small; they are ordinary settings.
 */
export interface ControlLimitSettings {
  /** Journal waits (GET /_sim/journal/wait) held at once; one more is answered 429. */
  readonly journalWaitersMax: number;
  /** Console streams (GET /_sim/stream) open at once; one more is answered 429. */
  readonly consoleStreamsMax: number;
  /** Unsent bytes a console stream client may build up before it is cut. */
  readonly consoleStreamMaxBufferedBytes: number;
  /** Fault rules in force at once; one more is answered 429. */
  readonly faultRulesMax: number;
  /** Largest `action.body` of a status fault rule, in UTF-8 bytes as served; 413 above. */
  readonly faultBodyMaxBytes: number;
}

export const CONTROL_LIMIT_SETTINGS: ReadonlyArray<OptionSpec<keyof ControlLimitSettings, SimulatorKind>> = [
  {
    key: 'journalWaitersMax',
    flag: undefined,
    env: 'JOURNAL_WAITERS_MAX',
    description: 'GET /_sim/journal/wait requests held at once (429 above)',
    defaultFor: always('100'),
    parse: parseInteger(1, 100_000),
  },
  {
    key: 'consoleStreamsMax',
    flag: undefined,
    env: 'CONSOLE_STREAMS_MAX',
    description: 'GET /_sim/stream console streams open at once (429 above)',
    defaultFor: always('20'),
    parse: parseInteger(1, 10_000),
  },
  {
    key: 'consoleStreamMaxBufferedBytes',
    flag: undefined,
    env: 'CONSOLE_STREAM_MAX_BUFFERED_BYTES',
    description: 'unsent bytes a console stream client may build up before it is cut',
    defaultFor: always(String(4 * 1024 * 1024)),
    parse: parseInteger(1024),
  },
  {
    key: 'faultRulesMax',
    flag: undefined,
    env: 'FAULT_RULES_MAX',
    description: 'fault rules in force at once (429 above)',
    defaultFor: always('100'),
    parse: parseInteger(1, 100_000),
  },
  {
    key: 'faultBodyMaxBytes',
    flag: undefined,
    env: 'FAULT_BODY_MAX_BYTES',
    description: "largest body of a status fault rule's answer (413 above)",
    defaultFor: always(String(64 * 1024)),
    parse: parseInteger(0),
  },
];
