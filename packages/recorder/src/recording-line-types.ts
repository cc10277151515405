/**
 * One line of a recording file as plain JSON (recordings/README.md, "The format"). A JSON line's
 * `message` is the body of POST /api/message; in the file its fields sit beside `at` and
 * `delivery` on one level.
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
