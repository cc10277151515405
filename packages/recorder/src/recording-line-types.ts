/**
 * One line of a recording as the recorder and the anonymiser pass it around (recordings/README.md,
 * "The format"). A JSON line's `message` is the body of POST /api/message; on disk its fields sit
 * beside `at` and `delivery`.
 */
export interface RecordingLineJson {
  at: string;
  delivery: 'durable' | 'transient';
  message: Record<string, unknown>;
}

export interface RecordingLineLegacy {
  at: string;
  delivery: 'durable' | 'transient';
  channel: string;
  payloadKey: string;
  xml: string;
}
