// The STOMP wire format both ends share: the legacy simulator's server sessions and the recorder's client.
export * from './stomp-frame';
export {
  StompParser,
  DEFAULT_PARSER_LIMITS,
  type StompParserLimits,
  type StompParserHandlers,
} from './stomp-parser';
