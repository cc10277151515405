// The recorder: a client of the customer interface that writes what it receives as recordings.
export * from './errors';
export * from './recording-line-types';
export * from './transports';
export * from './recorder';
export * from './summary';
export { retryAfterMs } from './backoff';
export type { FetchFn } from './http-client';
export * from './anonymise/index';
export * from './secrets/index';
export * from './anonymise-files/index';
