import { RecorderError } from './errors';
import type { AnonymiseRequest, LineTransformer } from './line-transformer';

/**
 * The anonymiser (packages/recorder/src/anonymise, built beside the recorder for issue 24), or
 * ANONYMISER_UNAVAILABLE in a build without it. Looked up when asked for, so a recording without
 * --anonymise or --redact never depends on it.
 */
export function loadAnonymiser(request: AnonymiseRequest): LineTransformer {
  let module: { createAnonymiser?: (options: AnonymiseRequest) => LineTransformer };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    module = require('./anonymise') as typeof module;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code !== 'MODULE_NOT_FOUND' || !String(e.message).includes('./anonymise')) throw err;
    throw new RecorderError('ANONYMISER_UNAVAILABLE', {}, { cause: err });
  }
  if (typeof module.createAnonymiser !== 'function') throw new RecorderError('ANONYMISER_UNAVAILABLE', {});
  return module.createAnonymiser(request);
}
