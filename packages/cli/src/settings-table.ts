import { SETTINGS } from '@racedata/core';

/**
 * The settings table of docs/configuration.md, rendered from the one settings table so the docs cannot
 * drift from the code (a test compares them).
 */
export function settingsMarkdownTable(): string {
  const rows = SETTINGS.map((spec) => {
    const json = spec.defaultFor('json');
    const legacy = spec.defaultFor('legacy');
    const fallback = json === legacy ? (json ?? 'off') : `${legacy} legacy, ${json} JSON`;
    const flag = spec.flag ? `\`${spec.flag}\`` : '';
    return `| \`${spec.env}\` | ${flag} | ${fallback} | ${spec.description} |`;
  });
  return ['| Env var | Flag | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
