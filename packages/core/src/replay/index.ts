export * from './recording-types';
export * from './recording-line';
export * from './recording-loader';
export * from './rebase-dates';
export * from './replayer';
export * from './in-process-replay';
export * from './race-of';
export * from './replay-control';
