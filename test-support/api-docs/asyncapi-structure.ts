import specs from '@asyncapi/specs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { collectRefs, pointer, resolvePointer } from './json-pointer';
import { describeErrors, documentAjv } from './schema-ajv';

const DOC_ID = 'urn:racedata:served-asyncapi';

interface AsyncDoc {
  asyncapi: string;
  operations: Record<string, { channel: { $ref: string }; messages: Array<{ $ref: string }> }>;
  components: { messages: Record<string, { payload?: unknown; headers?: unknown }> };
}

/**
 * What is wrong with a served AsyncAPI 3.0 document: the official schema's verdict (from
 * @asyncapi/specs), refs that point nowhere, operations naming messages of another channel, and
 * payload or header schemas that are not valid draft-07 (AsyncAPI Schema) schemas.
 */
export function asyncApiProblems(doc: AsyncDoc): string[] {
  // The bundled schema embeds the draft-07 meta-schema under its own $id: Ajv's copy must not clash.
  const official = new Ajv({ strict: false, allErrors: true, meta: false, validateSchema: false });
  addFormats(official);
  // A format the schema names (content types) that ajv-formats does not define.
  official.addFormat('media-range', true);
  const validate = official.compile(specs.schemas['3.0.0']);
  const problems: string[] = [];
  if (!validate(doc)) problems.push(`AsyncAPI 3.0.0 schema: ${describeErrors(official, validate.errors)}`);
  for (const { ref, at } of collectRefs(doc)) {
    if (resolvePointer(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} points nowhere`);
  }
  for (const [name, op] of Object.entries(doc.operations)) {
    for (const message of op.messages) {
      if (!message.$ref.startsWith(`${op.channel.$ref}/messages/`)) {
        problems.push(`operation ${name}: message ${message.$ref} is not a message of ${op.channel.$ref}`);
      }
    }
  }
  const ajv = documentAjv(doc, DOC_ID, 'draft-07');
  for (const [name, message] of Object.entries(doc.components.messages)) {
    for (const part of ['payload', 'headers'] as const) {
      if (message[part] === undefined) continue;
      try {
        ajv.compile({ $ref: `${DOC_ID}${pointer('components', 'messages', name, part)}` });
      } catch (err) {
        problems.push(`message ${name} ${part}: not a valid draft-07 schema: ${(err as Error).message}`);
      }
    }
  }
  return problems;
}

/** Validates real WebSocket messages against the payload and header schemas a document declares. */
export class AsyncMessages {
  private readonly ajv: Ajv;

  constructor(private readonly doc: AsyncDoc) {
    this.ajv = documentAjv(doc, DOC_ID, 'draft-07');
  }

  /** Throws, saying what differs, unless `part` of the message matches the named component message. */
  check(name: string, part: 'payload' | 'headers', value: unknown): void {
    const message = this.doc.components.messages[name];
    if (!message?.[part]) throw new Error(`the document declares no ${part} for message ${name}`);
    const validate = this.ajv.compile({ $ref: `${DOC_ID}${pointer('components', 'messages', name, part)}` });
    if (!validate(value)) {
      throw new Error(
        `${name} ${part} does not match: ${describeErrors(this.ajv, validate.errors)}; got ${JSON.stringify(value)}`,
      );
    }
  }
}
