// Splits the CLI's bundle in two: the modules a simulator's start runs stay in the bundle, and the
// modules only a command, a page or a feature asks for later (certify, record, the console's
// assets, the API documents, /metrics, commander's full program) go to a second file beside it,
// read the first time one of them is required.
//
// A start reads the whole bundle and copies it into the string V8 compiles: every byte of it
// costs twice, and on a virtual machine that backs its memory lazily each page a process touches
// for the first time costs tens of microseconds (bench/src/scenarios/start-up measures starts).
// Half the bundle is code a start never runs; V8 never compiles it, but it was read and copied all
// the same.
//
// A module left out is replaced in the bundle by a stand-in with the same signature, which loads
// the on-demand file (once), and calls the module's own function from it. The file is a script
// whose value is a function of the bundle's top-level names the moved modules use (the
// `require_*` functions of other modules, the bundle's `require`), so the moved code sees exactly
// the bindings it saw inside the bundle: each is assigned once, before any module runs.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { parse } from 'acorn';
import { applyEdits } from './bundle-wrappers.mjs';

/** The on-demand file's name, beside the bundle. */
export const ON_DEMAND_FILE = 'racedata-sim.on-demand.js';

/**
 * The modules (as esbuild names them in each wrapper's comment) that a start of `json`, `legacy`
 * or `all` (with a race day or not) never requires. Every module reachable from the bundle's top
 * level without passing one of these stays in the bundle; the rest moves. A root that a start
 * does require costs that start the on-demand file's load, which packages/cli/test/
 * bundle-on-demand.test.ts catches. The file's load holds the event loop for tens of milliseconds,
 * so what a serving simulator may need mid-traffic stays: jsonwebtoken (the first token in
 * TOKEN_MODE=jwt) is in the bundle, loaded on first use as before.
 */
export const ON_DEMAND_ROOTS = [
  // commands other than a plain start (packages/cli/src/on-demand-commands.ts, main.ts)
  'packages/cli/dist/program.js',
  'packages/cli/dist/record/record-command.js',
  'packages/cli/dist/anonymise/anonymise-command.js',
  'packages/cli/dist/certify/certify-command.js',
  'packages/cli/dist/race-day/race-day-command.js',
  // pages and features asked for after the start
  'packages/console/dist/assets.js',
  'packages/control/dist/docs/index.js',
  'packages/json-sim/dist/docs/json-docs.js',
  'packages/legacy-sim/dist/docs/legacy-docs.js',
  'node_modules/marked/lib/marked.cjs',
  'node_modules/prom-client/index.js',
  // the real modules behind the bundle's lazy stand-ins (scripts/bundle.mjs)
  'node_modules/qs/lib/index.js',
  'node_modules/send/index.js',
  'node_modules/content-disposition/dist/index.js',
  'node_modules/debug/src/index.js',
];

/** The names the bundle's code gets from the function around it (BUNDLE_OPENING). */
const WRAPPER_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname'];
const HELPERS = ['__onDemand', '__onDemandCache', '__onDemandModule', '__loadOnDemand'];

/** The names a declaration's pattern binds (`var {a, b: [c]} = ...` binds a and c). */
function boundNames(pattern) {
  if (pattern.type === 'Identifier') return [pattern.name];
  if (pattern.type === 'ObjectPattern')
    return pattern.properties.flatMap((p) => boundNames(p.type === 'RestElement' ? p.argument : p.value));
  if (pattern.type === 'ArrayPattern') return pattern.elements.flatMap((e) => (e ? boundNames(e) : []));
  if (pattern.type === 'RestElement') return boundNames(pattern.argument);
  if (pattern.type === 'AssignmentPattern') return boundNames(pattern.left);
  return [];
}

/** Identifier names used in `node`, less those of its nodes for which `skip` is true. */
function namesUsed(node, skip = () => false) {
  const names = new Set();
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (skip(current)) continue;
    if (current.type === 'Identifier') names.add(current.name);
    for (const value of Object.values(current)) {
      const children = Array.isArray(value) ? value : [value];
      for (const child of children)
        if (child !== null && typeof child === 'object' && typeof child.type === 'string') stack.push(child);
    }
  }
  return names;
}

/**
 * `code` (an esbuild CommonJS bundle with plain module wrappers: scripts/bundle-wrappers.mjs)
 * split into the bundle a start runs (`main`) and the on-demand file (`onDemand`, undefined when
 * nothing moves), with the paths of the modules moved. Throws when the bundle is not in the
 * shape this expects: a bundle is never half split.
 */
export function splitOnDemand(code, roots = ON_DEMAND_ROOTS) {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
  for (const name of HELPERS)
    if (new RegExp(`\\b${name}\\b`).test(code)) throw new Error(`bundle: ${name} is already in use`);
  const topNames = new Set(WRAPPER_PARAMS);
  const modules = new Map(); // variable (require_x) -> { path, fn }
  const declared = new Set(); // the identifiers that name a module where it is declared
  for (const statement of ast.body) {
    if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration')
      topNames.add(statement.id.name);
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      for (const name of boundNames(declarator.id)) topNames.add(name);
      const init = declarator.init;
      if (init?.type !== 'CallExpression' || init.callee.name !== '__commonJS') continue;
      const [fn] = init.arguments;
      const path = /^\s*\/\*(.*?)\*\/\s*$/s.exec(code.slice(init.callee.end + 1, fn.start))?.[1];
      if (init.arguments.length !== 1 || fn.type !== 'FunctionExpression' || path === undefined)
        throw new Error(`bundle: a module wrapper not in the plain shape at ${init.start}`);
      modules.set(declarator.id.name, { path: path.replaceAll('*\\/', '*/'), fn });
      declared.add(declarator.id);
    }
  }
  const unknown = roots.filter((root) => ![...modules.values()].some((m) => m.path === root));
  if (unknown.length > 0) throw new Error(`bundle: no module ${unknown.join(', ')} to leave for later`);

  // What a start runs: the modules the top level requires, and theirs, stopping at the roots.
  const fns = new Set([...modules.values()].map((m) => m.fn));
  const topLevel = namesUsed(ast, (node) => fns.has(node) || declared.has(node));
  const rootSet = new Set(roots);
  const kept = new Set();
  const pending = [...topLevel].filter((name) => modules.has(name));
  while (pending.length > 0) {
    const name = pending.pop();
    const module = modules.get(name);
    if (kept.has(name) || rootSet.has(module.path)) continue;
    kept.add(name);
    for (const used of namesUsed(module.fn)) if (modules.has(used)) pending.push(used);
  }
  const moved = [...modules].filter(([name]) => !kept.has(name)).map(([, module]) => module);
  if (moved.length === 0) return { main: code, onDemand: undefined, moved: [] };
  moved.sort((a, b) => a.fn.start - b.fn.start);

  // The on-demand file: a function of the top-level names the moved modules use, whose value is
  // their functions in order; strict when the bundle is.
  const firstCode = ast.body.findIndex((statement) => statement.directive === undefined);
  const prologue = ast.body.slice(0, firstCode < 0 ? ast.body.length : firstCode);
  const strict = prologue.some((statement) => statement.directive === 'use strict');
  const scope = [
    ...new Set(moved.flatMap((m) => [...namesUsed(m.fn)].filter((n) => topNames.has(n)))),
  ].sort();
  const functions = moved.map(
    (m) => `/*${m.path.replaceAll('*/', '*\\/')}*/${code.slice(m.fn.start, m.fn.end)}`,
  );
  const script = `(function(${scope.join(',')}){${strict ? '"use strict";' : ''}return[\n${functions.join(',\n')}\n]})\n`;
  if (!isAscii(Buffer.from(script))) throw new Error('bundle: the on-demand part is not ASCII');
  const id = createHash('sha256').update(script).digest('hex').slice(0, 32);
  const header = `// racedata-sim on-demand ${id}\n`;

  // The bundle: each moved module's function replaced by its stand-in, the loader added after the
  // directive prologue ("use strict"). Run by the npm bin, the bundle's module carries what compiles
  // the part through a code cache of its own and is told which of its modules a run required
  // (packages/cli/bin/code-cache.js, onDemandCache); run any other way, the part is compiled plainly.
  const loader =
    `var __onDemand,__onDemandCache=module.racedataOnDemand,__onDemandModule=i=>function(exports,module){__onDemandCache?.used(i);return(__onDemand??=__loadOnDemand())[i].call(this,exports,module)};` +
    `function __loadOnDemand(){let file=require("path").join(__dirname,${JSON.stringify(ON_DEMAND_FILE)}),text;` +
    // Read 64 KB at a time: a buffer of the file's size would be mapped by glibc, and freeing it
    // raises glibc's mapping threshold for good (packages/cli/bin/code-cache.js, READ_BUFFER_BYTES).
    `try{let fs=require("fs"),fd=fs.openSync(file,"r"),buffer=Buffer.allocUnsafeSlow(65536),parts=[],n;` +
    `try{while((n=fs.readSync(fd,buffer,0,65536,null))>0)parts.push(buffer.toString("latin1",0,n))}finally{fs.closeSync(fd)}` +
    `text=parts.join("")}` +
    `catch(err){throw new Error("the bundle's on-demand part, which npm run build writes beside it, cannot be read: "+err.message)}` +
    `if(!text.startsWith(${JSON.stringify(header)}))throw new Error(file+" is from another build than "+__filename+": npm run build writes both");` +
    `return(__onDemandCache?__onDemandCache.compile(file,text):new(require("vm").Script)(text,{filename:file})).runInThisContext()(${scope.join(',')})}`;
  const prologueEnd = prologue.length > 0 ? prologue[prologue.length - 1].end : 0;
  const main = applyEdits(code, [
    { from: prologueEnd, to: prologueEnd, text: loader },
    ...moved.map((m, i) => ({ from: m.fn.start, to: m.fn.end, text: `__onDemandModule(${i})` })),
  ]);
  return { main, onDemand: header + script, moved: moved.map((m) => m.path) };
}
