export { run, main, processContext } from './main';
export { buildProgram } from './program';
export type { CliContext } from './context';
export { settingsMarkdownTable } from './settings-table';
