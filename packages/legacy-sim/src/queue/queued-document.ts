import type { LegacyDocument } from '../legacy-document';

/** The body of the long poll's 200 for a message: its XML document as a JSON string. */
export interface ListenAnswer {
  /**
   * A string when small: Node then sends it in one write with the response head, which is
   * what a delivery of a small message mostly costs. UTF-8 bytes when large (see
   * LARGE_DOCUMENT_CHARS), written to every poll as they are.
   */
  readonly body: string | Buffer;
  /** The body's UTF-8 length, as the Content-Length header gives it. */
  readonly length: string;
}

/**
 * From this length on a document is held as UTF-8 bytes rather than a string. Bytes live outside
 * the V8 heap, counted as external memory, which V8 collects within a bounded growth once they
 * are dropped or acked. Held as strings, megabyte documents kept the live heap large, and V8 let
 * the heap grow to several times its live size before collecting the dropped ones: a flood of
 * 1 MB posts (bench/src/abuse/phase-legacy.ts) grew RSS by 355 MB with 64 MB queued.
 */
export const LARGE_DOCUMENT_CHARS = 16 * 1024;

/**
 * A queued message's document, held once however many users' queues share it: the document
 * until a poll first asks for the answer, then the answer in its place (never both). A large
 * injected UTF-8 body is kept as the request's own bytes, so queueing it copies nothing and its
 * answer is made only if some user polls for it.
 */
export class QueuedDocument {
  private held: string | Buffer;
  private answered: ListenAnswer | undefined;

  /** `utf8`: the document's UTF-8 bytes, when the caller has them (an injected body). */
  constructor({ xml, utf8 }: LegacyDocument) {
    if (xml !== undefined && xml.length < LARGE_DOCUMENT_CHARS) this.held = xml;
    else if (!utf8) this.held = Buffer.from(xml as string, 'utf8');
    else this.held = ownsItsMemory(utf8) ? utf8 : Buffer.from(utf8);
  }

  /** The answer, made on the first call (a megabyte document takes a few milliseconds). */
  answer(): ListenAnswer {
    if (this.answered) return this.answered;
    const held = this.held;
    const text = JSON.stringify(typeof held === 'string' ? held : held.toString('utf8'));
    if (typeof held === 'string') {
      this.answered = { body: text, length: String(Buffer.byteLength(text, 'utf8')) };
    } else {
      const bytes = Buffer.from(text, 'utf8');
      this.answered = { body: bytes, length: String(bytes.length) };
    }
    this.held = '';
    return this.answered;
  }

  /** The document, decoded again when needed: for tests and diagnostics, never on delivery. */
  get xml(): string {
    if (this.answered) {
      const body = this.answered.body;
      return JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as string;
    }
    return typeof this.held === 'string' ? this.held : this.held.toString('utf8');
  }
}

/**
 * A view into a larger allocation (a body after its byte-order mark, a small body read into the
 * socket's buffer with the request head) would keep all of it alive with the message.
 */
function ownsItsMemory(bytes: Buffer): boolean {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length;
}
