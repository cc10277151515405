// The recorder: a client of the customer interface that writes what it receives as recordings.
export type { RecordingLineJson, RecordingLineLegacy } from './recording-line-types';
export { recorderErrors, recorderError, type RecorderErrorCode } from './errors';
export * from './anonymise/index';
export * from './secrets/index';
export * from './anonymise-files/index';
