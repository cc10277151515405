export {
  anonymiseRecordings,
  type AnonymiseRecordingsOptions,
  type AnonymiseRecordingsResult,
  type AnonymisedFile,
} from './anonymise-recordings';
