// The recorder: a client of the customer interface that writes what it receives as recordings.
export * from './errors';
export * from './recording-line-types';
export * from './line-transformer';
export * from './transports';
export * from './recorder';
export * from './summary';
export { retryAfterMs } from './backoff';
export type { FetchFn } from './http-client';
export { loadAnonymiser } from './anonymiser-loader';
