import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { CertifyError } from '../errors';
import { SUITES, type Suite, type SuiteDefinition } from '../types';

/**
 * Suites from a module of one's own (`racedata-sim certify --definitions FILE`, a hidden option):
 * a CommonJS module exporting `definitions`, shaped as SUITE_DEFINITIONS. certify's own
 * tests use it to run the real command against scenarios whose verdicts they know.
 */
export function loadDefinitions(file: string, cwd: string): Record<Suite, SuiteDefinition> {
  const bad = (detail: string) =>
    new CertifyError('OPTIONS_INVALID', { detail: `--definitions ${file}: ${detail}` });
  let loaded: unknown;
  try {
    // require, not import(): the CLI's bundle runs from V8's code cache, which has no import().
    const full = resolve(cwd, file);
    loaded = createRequire(full)(full);
  } catch (err) {
    throw bad((err as Error).message);
  }
  const module = loaded as { definitions?: unknown; default?: { definitions?: unknown } };
  const definitions = (module.definitions ?? module.default?.definitions) as
    Record<string, unknown> | undefined;
  if (typeof definitions !== 'object' || definitions === null) throw bad('exports no `definitions`');
  for (const suite of SUITES) {
    const definition = definitions[suite] as Partial<SuiteDefinition> | undefined;
    if (!definition || !Array.isArray(definition.scenarios) || definition.suite !== suite) {
      throw bad(`definitions.${suite} is not a suite definition ({ suite, simulator, scenarios })`);
    }
  }
  return definitions as Record<Suite, SuiteDefinition>;
}
