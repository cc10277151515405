import { CertifyError } from '../errors';
import { SUITES, type CheckInfo, type Scenario, type Suite, type SuiteDefinition } from '../types';

/** What one run plays: the suites, and within them the checks --only kept. */
export interface Selection {
  readonly suites: readonly Suite[];
  /** Whether report ids carry their suite (`events/auth-key-secret`): only when `all` runs. */
  readonly qualified: boolean;
  /** Whether a check is played; true for all when there is no --only. */
  readonly includes: (suite: Suite, id: string) => boolean;
  /** Whether a check's failure was expected (--expected-failures). */
  readonly expected: (suite: Suite, id: string) => boolean;
}

export function parseSuite(value: string): Suite | 'all' {
  if (value === 'all' || (SUITES as readonly string[]).includes(value)) return value as Suite | 'all';
  throw new CertifyError('UNKNOWN_SUITE', { suite: value, known: [...SUITES, 'all'] });
}

/** The id a report gives a check: bare for one suite, `suite/id` when `all` runs. */
export function reportId(suite: Suite, id: string, qualified: boolean): string {
  return qualified ? `${suite}/${id}` : id;
}

/** Every check a suite's scenarios grade, in order. */
export function checksOf(definition: SuiteDefinition): CheckInfo[] {
  return definition.scenarios.flatMap((scenario: Scenario) => [...scenario.checks]);
}

/**
 * Resolves the suites and the check ids of --only and --expected-failures: an id is bare (that
 * check in every suite that has it) or `suite/id`. An id that names no check of this run is a
 * usage error, so a typo never turns into a check silently not run or a failure not excused.
 */
export function select(
  suite: Suite | 'all',
  definitions: Readonly<Record<Suite, SuiteDefinition>>,
  only: readonly string[] | undefined,
  expectedFailures: readonly string[],
): Selection {
  const suites = suite === 'all' ? [...SUITES] : [suite];
  const known = new Map<Suite, Set<string>>(
    suites.map((s) => [s, new Set(checksOf(definitions[s]).map((c) => c.id))]),
  );
  const knownList = suites.flatMap((s) =>
    [...(known.get(s) ?? [])].map((id) => reportId(s, id, suite === 'all')),
  );
  const resolve = (option: string, ids: readonly string[]): Set<string> => {
    const keys = new Set<string>();
    for (const raw of ids) {
      const id = raw.trim();
      const slash = id.indexOf('/');
      const named = slash < 0 ? undefined : id.slice(0, slash);
      const check = slash < 0 ? id : id.slice(slash + 1);
      const matches = suites.filter((s) => (named === undefined || named === s) && known.get(s)?.has(check));
      if (matches.length === 0) {
        const elsewhere = ownersOf(check, named);
        throw new CertifyError('UNKNOWN_CHECK', {
          option,
          id,
          known: knownList,
          ...(elsewhere !== undefined && { elsewhere }),
        });
      }
      for (const s of matches) keys.add(`${s}/${check}`);
    }
    return keys;
  };
  // A check of another suite named by mistake: say whose it is.
  const ownersOf = (check: string, named: string | undefined): string | undefined => {
    const owners = SUITES.filter((s) => checksOf(definitions[s]).some((c) => c.id === check));
    if (owners.length === 0) return undefined;
    const where = (suite === 'all' ? owners.map((s) => `${s}/${check}`) : owners).join(' and ');
    const not = named ?? (suite === 'all' ? undefined : suite);
    return `it is a check of ${where}${not === undefined ? '' : `, not of ${not}`}`;
  };
  const onlyKeys = only === undefined ? undefined : resolve('--only', only);
  const expectedKeys = resolve('--expected-failures', expectedFailures);
  return {
    suites,
    qualified: suite === 'all',
    includes: (s, id) => onlyKeys === undefined || onlyKeys.has(`${s}/${id}`),
    expected: (s, id) => expectedKeys.has(`${s}/${id}`),
  };
}

/** `--only a,b` and an expected-failures file's lines: ids, blank lines and `#` comments skipped. */
export function parseIdList(text: string, separator: RegExp = /[\n,]/): string[] {
  return text
    .split(separator)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
}
