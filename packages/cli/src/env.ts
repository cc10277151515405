/**
 * An environment variable's value, with an empty one counting as unset: compose files pass
 * `VAR: ${OTHER:-}` through as "", which must mean "not given", not "malformed".
 */
export function envValue(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  const value = env[name];
  return value === '' ? undefined : value;
}
