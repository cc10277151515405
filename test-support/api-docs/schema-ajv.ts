import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * An Ajv that knows a served document under `id`, so a schema anywhere in it is compiled as
 * `{ $ref: id + '#/pointer' }` and its local refs (#/components/...) resolve inside the
 * document. Strict about keywords (a typo or a keyword of the wrong draft throws), lenient about
 * types, which the documents state on the parent of anyOf/if branches.
 */
export function documentAjv(doc: unknown, id: string, draft: '2020-12' | 'draft-07'): Ajv {
  const options = {
    strictSchema: true,
    strictNumbers: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
  } as const;
  const ajv = draft === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  // The document's own top-level fields are not schema keywords: known, so strict mode lets the
  // root be compiled on the way to a fragment, and never looked into.
  ajv.addVocabulary(Object.keys(doc as object).filter((key) => !ajv.RULES.keywords[key]));
  ajv.addSchema(doc as object, id, undefined, false);
  return ajv;
}

export function describeErrors(ajv: Ajv, errors: Ajv['errors']): string {
  return ajv.errorsText(errors, { separator: '; ', dataVar: 'body' });
}
