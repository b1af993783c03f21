// Follows one command through the code and prints the source files it enters under its adapter,
// and the returns: call paths that come back into a file already on the stack below another
// (A -> B -> A, a lower layer calling back up). Issue 27's "page FILE followed through the code".
//
//   node scripts/trace-path.mjs [--adapter src/commands/page.ts] [--all] -- page FILE [options]
//   npm run trace:page            (page of a small generated file)
//
// Method: the CLI is bundled as scripts/build.mjs bundles it (one CommonJS script), unminified,
// into a scratch directory (never dist/), with every function of src/ made to call a probe as its
// first statement. The probe takes V8's stack (every frame, async ones included), maps each frame
// of the bundle to its source file by esbuild's `// src/....ts` section markers, and keeps the
// frames from the outermost one in the adapter inwards, consecutive frames of one file folded
// into one. A file is "entered" when it shows in such a stack; a "return" is a stack in which a
// file shows again after another file (counted once per distinct path, not once per call: a
// 6-line file makes dozens of calls along one path). Package code and Node's own frames are not
// source files and are left out of the paths.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { lazyChildProcess } from './esbuild-plugins.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const argv = process.argv.slice(2);
let adapter = 'src/commands/page.ts';
let showAll = false;
let command = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--adapter') adapter = argv[++i];
  else if (argv[i] === '--all') showAll = true;
  else if (argv[i] === '--') {
    command = argv.slice(i + 1);
    break;
  } else command = argv.slice(i);
}
const scratch = mkdtempSync(join(tmpdir(), 'linewise-trace-'));

async function main() {
  const out = join(scratch, 'cli.cjs');
  await build({
    absWorkingDir: root, // the section markers name files from the checkout's root: `// src/...`
    bundle: true,
    platform: 'node',
    target: 'node20',
    minify: false,
    legalComments: 'none',
    logLevel: 'warning',
    format: 'cjs',
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile: out,
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__linewise_meta.url' },
    banner: { js: "var __linewise_meta={get url(){return require('node:url').pathToFileURL(__filename).href}};" },
    plugins: [probeEveryFunction, lazyChildProcess],
  });
  const sections = sectionsOf(readFileSync(out, 'utf8'));
  const stacks = new Map(); // the folded stacks seen under the adapter, by their key
  const called = new Map(); // file -> the functions of it called under the adapter
  globalThis.__lwProbe = (fn) => {
    const limit = Error.stackTraceLimit;
    const prepare = Error.prepareStackTrace;
    Error.stackTraceLimit = Infinity;
    Error.prepareStackTrace = (_, sites) => sites;
    const o = {};
    Error.captureStackTrace(o, fn);
    const sites = o.stack;
    Error.stackTraceLimit = limit;
    Error.prepareStackTrace = prepare;
    const files = [];
    for (let i = sites.length - 1; i >= 0; i--) {
      const s = sites[i];
      if (s.getFileName() !== out) continue;
      // a module's initialization (esbuild's `__esm` wrappers are named after the file) runs
      // when the bundle loads, not because the command called anything: left out
      if (/\.ts$/.test(s.getFunctionName() ?? '')) return;
      const f = sectionAt(sections, s.getLineNumber());
      if (f === undefined || !f.startsWith('src/')) continue;
      // the adapter as a function called (the bundle's top level runs in no named function)
      if (files.length === 0 && (f !== adapter || !s.getFunctionName())) continue;
      if (files[files.length - 1] !== f) files.push(f);
    }
    if (files.length === 0) return;
    stacks.set(files.join(' -> '), files);
    // the function that called the probe: what the stack's innermost file was entered for
    const inner = files[files.length - 1];
    const name = sites[0].getFunctionName() ?? '(anonymous)';
    called.set(inner, (called.get(inner) ?? new Set()).add(sites[0].isConstructor() ? `new ${name}` : name));
  };
  const { main: run } = createRequire(import.meta.url)(out);
  // the real process's edges, as bin/linewise.js runs it: the command's own output comes first
  const status = await run(command);
  globalThis.__lwProbe = () => {};
  report(stacks, called, status);
}

function report(stacks, called, status) {
  const entered = [];
  const returns = new Map();
  for (const files of stacks.values()) {
    for (let i = 1; i < files.length; i++) {
      if (!entered.includes(files[i]) && files[i] !== adapter) entered.push(files[i]);
      const j = files.lastIndexOf(files[i], i - 1);
      if (j >= 0) {
        const path = files.slice(j, i + 1).join(' -> ');
        returns.set(path, (returns.get(path) ?? 0) + 1);
      }
    }
  }
  const short = (f) => f.replace(/^src\//, '').replace(/\.ts$/, '');
  console.log(`linewise ${command.map((a) => (a.startsWith(scratch) ? relative(scratch, a) : a)).join(' ')}  (exit ${status})`);
  console.log(`files entered under ${adapter}: ${entered.length}`);
  // esbuild renames a function whose name another file's takes (read2): its file tells them apart
  for (const f of entered) console.log(`  ${short(f).padEnd(24)} ${[...(called.get(f) ?? [])].join(', ')}`);
  console.log(`returns (a file entered again below another, per call path): ${returns.size}`);
  for (const p of returns.keys()) console.log(`  ${p.split(' -> ').map(short).join(' -> ')}`);
  if (showAll) {
    console.log('call paths:');
    for (const files of stacks.values()) console.log(`  ${files.map(short).join(' -> ')}`);
  }
}

/** The bundle's source sections: the first line of each, and its file (ascending). */
function sectionsOf(text) {
  const starts = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^\/\/ ((?:src|node_modules)\/.*|[^ ]*node_modules\/.*)$/.exec(lines[i]);
    if (m) starts.push({ line: i + 1, file: m[1] });
  }
  return starts;
}

function sectionAt(starts, line) {
  let lo = 0;
  let hi = starts.length - 1;
  let found;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid].line <= line) {
      found = starts[mid].file;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** An esbuild plugin: every function, method, accessor and constructor of src/ calls the probe first. */
const probeEveryFunction = {
  name: 'probe-every-function',
  setup(b) {
    const src = join(root, 'src') + sep;
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (a) => {
      if (!a.path.startsWith(src)) return undefined; // a package's own sources: as they are
      const text = readFileSync(a.path, 'utf8');
      const sf = ts.createSourceFile(a.path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const result = ts.transform(sf, [probeTransformer]);
      const printed = ts.createPrinter({ removeComments: true }).printFile(result.transformed[0]);
      result.dispose();
      return { contents: printed, loader: 'ts' };
    });
  },
};

function probeTransformer(context) {
  const f = context.factory;
  // the probe's own frame and everything above it are dropped: `__lwProbe(<this function>)` would
  // need a name, so the probe is told nothing and drops only itself
  const probe = () => f.createExpressionStatement(f.createCallExpression(f.createIdentifier('__lwProbe'), undefined, [f.createIdentifier('__lwProbe')]));
  const withProbe = (body) => {
    if (body === undefined) return body;
    if (ts.isBlock(body)) {
      // a constructor's super() must come first
      const first = body.statements[0];
      if (first && ts.isExpressionStatement(first) && ts.isCallExpression(first.expression) && first.expression.expression.kind === ts.SyntaxKind.SuperKeyword) {
        return f.updateBlock(body, [first, probe(), ...body.statements.slice(1)]);
      }
      return f.updateBlock(body, [probe(), ...body.statements]);
    }
    return f.createBlock([probe(), f.createReturnStatement(body)], true);
  };
  const visit = (node) => {
    node = ts.visitEachChild(node, visit, context);
    if (ts.isFunctionDeclaration(node) && node.body) return f.updateFunctionDeclaration(node, node.modifiers, node.asteriskToken, node.name, node.typeParameters, node.parameters, node.type, withProbe(node.body));
    if (ts.isFunctionExpression(node)) return f.updateFunctionExpression(node, node.modifiers, node.asteriskToken, node.name, node.typeParameters, node.parameters, node.type, withProbe(node.body));
    if (ts.isArrowFunction(node)) return f.updateArrowFunction(node, node.modifiers, node.typeParameters, node.parameters, node.type, node.equalsGreaterThanToken, withProbe(node.body));
    if (ts.isMethodDeclaration(node) && node.body) return f.updateMethodDeclaration(node, node.modifiers, node.asteriskToken, node.name, node.questionToken, node.typeParameters, node.parameters, node.type, withProbe(node.body));
    if (ts.isGetAccessorDeclaration(node) && node.body) return f.updateGetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, node.type, withProbe(node.body));
    if (ts.isSetAccessorDeclaration(node) && node.body) return f.updateSetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, withProbe(node.body));
    if (ts.isConstructorDeclaration(node) && node.body) return f.updateConstructorDeclaration(node, node.modifiers, node.parameters, withProbe(node.body));
    return node;
  };
  return (sf) => ts.visitNode(sf, visit);
}

try {
  if (command.length === 0) {
    // the default: page of a small file, six lines of UTF-8 (what the figure was taken on)
    const file = join(scratch, 'small.txt');
    writeFileSync(file, 'one\ntwo\r\nthree\nfour\nfive\nsix\n');
    command = ['page', file];
  }
  await main();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
