// esbuild wraps each CommonJS module of a bundle as `__commonJS({"path/of/module.js"(exports,
// module) {...}})`: an object literal per module, whose only use is to name the function. Every
// literal has its own key, so at load V8 makes a new hidden class, an allocation site and a
// literal boilerplate for each of the bundle's ~800 modules, whether the start runs the module
// or not: about half of what the bundle's top level allocates, and a tenth of its code cache.
// Written as `__commonJS(/*path*/function(exports, module) {...})` instead, a module costs one
// closure.
// A json or legacy start answers about 2 ms sooner (bench/src/scenarios/start-up measures it).
import { parse } from 'acorn';

const HELPER = '(cb,mod)=>function(){return mod||cb((mod={exports:{}}).exports,mod),mod.exports}';

/** Every node below `node` (acorn's ESTree), depth first. */
function* nodesOf(node) {
  yield node;
  for (const value of Object.values(node)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children)
      if (child !== null && typeof child === 'object' && typeof child.type === 'string')
        yield* nodesOf(child);
  }
}

/**
 * `code` (an esbuild bundle) with its module wrappers written as plain functions and its
 * `__commonJS` helper calling them so. Throws when a wrapper or the helper is not in the shape
 * esbuild writes: a bundle is never half rewritten. A bundle with no CommonJS module is returned
 * as it is.
 */
export function plainModuleWrappers(code) {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
  const edits = [];
  let helper;
  for (const node of nodesOf(ast)) {
    if (node.type === 'VariableDeclarator' && node.id.name === '__commonJS') helper = node.init;
    if (node.type !== 'CallExpression' || node.callee.name !== '__commonJS') continue;
    const [wrapper] = node.arguments;
    const method = wrapper?.properties?.[0];
    if (node.arguments.length !== 1 || wrapper.properties.length !== 1 || !method.method)
      throw new Error(`bundle: a module wrapper not in esbuild's shape at ${node.start}`);
    const fn = method.value;
    // `{"path"(exports, module) {` becomes `/*path*/function(exports, module) {`, and the
    // object's `}` goes: the path stays as a comment, for a reader of the bundle.
    const name = String(method.key.value ?? method.key.name).replaceAll('*/', '*\\/');
    edits.push({
      from: wrapper.start,
      to: fn.body.start,
      text: `/*${name}*/function${code.slice(fn.start, fn.body.start)}`,
    });
    edits.push({ from: fn.body.end, to: wrapper.end, text: '' });
  }
  if (edits.length === 0) return code;
  if (helper === undefined) throw new Error('bundle: module wrappers but no __commonJS helper');
  edits.push({ from: helper.start, to: helper.end, text: HELPER });
  return applyEdits(code, edits);
}

/** `code` with each edit's range (`from` to `to`, none overlapping) replaced by its `text`. */
export function applyEdits(code, edits) {
  const pieces = [];
  let at = 0;
  for (const { from, to, text } of [...edits].sort((a, b) => a.from - b.from)) {
    pieces.push(code.slice(at, from), text);
    at = to;
  }
  pieces.push(code.slice(at));
  return pieces.join('');
}
