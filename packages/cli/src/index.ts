export { buildProgram, run, main, processContext } from './main';
export type { CliContext } from './context';
export { settingsMarkdownTable } from './settings-table';
