import { fences, type Page } from './markdown';

/**
 * The shell blocks of the docs, as the docs test runs them. A block that starts or calls a
 * simulator carries a marker on the line before its fence:
 * - `<!-- docs-test: run [flags] -->`: every command runs, in order, against one `racedata-sim all`
 *   process per page started with those flags; each must exit 0 and show the answer's shape;
 * - `<!-- docs-test: first-line [flags] -->`: a command that runs until stopped (a WebSocket
 *   watcher); its first line of output must come, with the shape shown;
 * - `<!-- docs-test: skip (why) -->`: not run, and the reason says why (a container engine,
 *   production URLs, a file the reader brings).
 */
export type Mode = 'run' | 'first-line' | 'skip';

export interface ShellBlock {
  readonly file: string;
  readonly line: number;
  readonly mode: Mode | undefined;
  /** Flags for the simulator of `run` and `first-line`; the reason of `skip`. */
  readonly detail: string;
  readonly commands: readonly Command[];
}

export interface Command {
  readonly text: string;
  /** The answer shown after the command, on `#` lines right below it. */
  readonly shown: readonly string[];
}

/** What makes a block one that starts or calls a simulator. */
const CALLS_A_SIMULATOR =
  /localhost:(3000|8080)|racedata-sim(\.js)?\b|\bnpm start\b|docker run|docker compose/;

export function shellBlocks(page: Page): ShellBlock[] {
  return fences(page.text)
    .filter((f) => f.lang === 'sh' && CALLS_A_SIMULATOR.test(f.body))
    .map((f) => {
      const m = /^<!-- docs-test: (run|first-line|skip)\b\s*(.*?)\s*-->$/.exec(f.marker ?? '');
      return {
        file: page.file,
        line: f.line,
        mode: m?.[1] as Mode | undefined,
        detail: m?.[2] ?? '',
        commands: commandsOf(f.body),
      };
    });
}

/** Commands of a block, continuation lines joined; `#` lines right after one are its answer. */
export function commandsOf(body: string): Command[] {
  const out: { text: string; shown: string[] }[] = [];
  let pending = '';
  let last: { text: string; shown: string[] } | undefined;
  for (const raw of body.split('\n')) {
    const line = raw.trimEnd();
    if (!pending && /^\s*#/.test(line)) {
      last?.shown.push(line.replace(/^\s*#\s?/, ''));
      continue;
    }
    if (!pending && line.trim() === '') {
      last = undefined;
      continue;
    }
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    last = { text: pending + line, shown: [] };
    pending = '';
    out.push(last);
  }
  return out;
}

/** The docs' fixed ports, pointed at the simulators the test started. */
export function onPorts(command: string, json: number, legacy: number): string {
  return command
    .replace(/(https?|wss?):\/\/localhost:3000/g, `$1://127.0.0.1:${json}`)
    .replace(/(https?|wss?):\/\/localhost:8080/g, `$1://127.0.0.1:${legacy}`)
    .replace(/(^|[\s'"])localhost:3000/g, `$1127.0.0.1:${json}`)
    .replace(/(^|[\s'"])localhost:8080/g, `$1127.0.0.1:${legacy}`);
}

/**
 * Whether an answer has the shape the docs show: every JSON key shown is in it, a JSON string
 * shown is a JSON string, and a header or status line shown is there (letter case aside).
 * Prose after `#` (what another window shows) is not an answer and is not checked.
 */
export function shapeProblems(shown: readonly string[], output: string): string[] {
  const problems: string[] = [];
  for (const line of shown) {
    const answer = line.replace(/\s{2,}\(.*\)$/, '').trim();
    if (/^(\d{3} )?[{[]/.test(answer)) {
      for (const key of new Set([...answer.matchAll(/"([A-Za-z_][\w-]*)":/g)].map((k) => k[1]!))) {
        if (!output.includes(`"${key}":`)) problems.push(`no "${key}" in the answer, as ${answer} shows`);
      }
    } else if (answer.startsWith('"')) {
      if (!output.trimStart().startsWith('"'))
        problems.push(`the answer is no JSON string, as ${answer} shows`);
    } else if (/^HTTP\/1\.1 \d{3}|^[a-z-]+: \S/i.test(answer)) {
      if (!output.toLowerCase().includes(answer.toLowerCase())) problems.push(`no "${answer}" in the answer`);
    }
  }
  return problems;
}

/** A command without its trailing `# comment` (a `#` inside quotes, or inside a word, stays). */
export function withoutComment(command: string): string {
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(command[i - 1]!))) return command.slice(0, i).trimEnd();
  }
  return command;
}
