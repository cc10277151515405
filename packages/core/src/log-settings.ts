import { LOG_FORMATS, LOG_LEVELS } from './logger';
import { always, parseBoolean, parseOneOf, type OptionSpec } from './option-parsers';

/** The log level, an option of the simulator commands and the replay command alike. */
export const LOG_LEVEL_OPTION: OptionSpec<'logLevel', unknown> = {
  key: 'logLevel',
  flag: '--log-level',
  env: 'LOG_LEVEL',
  description: 'log level',
  defaultFor: always('info'),
  parse: parseOneOf(LOG_LEVELS),
  choices: LOG_LEVELS,
};

/** How log lines look on stderr; the CLI resolves `auto` by whether stderr is a terminal. */
export const LOG_FORMAT_OPTION: OptionSpec<'logFormat', unknown> = {
  key: 'logFormat',
  flag: '--log-format',
  env: 'LOG_FORMAT',
  description:
    'log lines on stderr: pretty (one readable line), json (one object a line), or auto (pretty on a terminal)',
  defaultFor: always('auto'),
  parse: parseOneOf(LOG_FORMATS),
  choices: LOG_FORMATS,
};

/** Off by default: the read paths then pay nothing for it (the request listener is not wrapped). */
export const LOG_REQUESTS_OPTION: OptionSpec<'logRequests', unknown> = {
  key: 'logRequests',
  flag: '--log-requests',
  env: 'LOG_REQUESTS',
  description:
    'log each request (method, path, status, user, ms), each WebSocket/STOMP session open and close, and the version and heart-beats each STOMP CONNECT negotiated, at level info',
  defaultFor: always('false'),
  parse: parseBoolean,
  boolean: true,
};
