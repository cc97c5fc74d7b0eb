// The layering of src/ (ARCHITECTURE.md), checked from the source text: which folder may import which, no
// import cycles, small files and a small top level of src/cli. Each failure names the files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src');
const MAX_LINES = 350;
const MAX_CLI_TOP_FILES = 8;

interface Import {
  /** the imported file, relative to the repository (src/cli/globals.ts), or the bare specifier */
  target: string;
  /** `import type`, `export type … from`, or every named binding marked `type`: gone at run time */
  typeOnly: boolean;
  /** `import('…')`: loaded when called, not when the file loads */
  dynamic: boolean;
}

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return tsFiles(full);
    return d.name.endsWith('.ts') ? [full] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

/** './x.js' from src/cli/run.ts → src/cli/x.ts; packages and node: builtins stay as written. */
function resolveSpecifier(from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const abs = path.resolve(path.dirname(from), spec);
  for (const candidate of [abs.replace(/\.js$/, '.ts'), abs, `${abs}.ts`, path.join(abs, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return rel(candidate);
  }
  return rel(abs);
}

function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: Import[] = [];
  const add = (spec: ts.Expression | undefined, typeOnly: boolean, dynamic: boolean) => {
    if (spec && ts.isStringLiteral(spec)) out.push({ target: resolveSpecifier(file, spec.text), typeOnly, dynamic });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allTypes =
        !!clause &&
        !clause.name &&
        !!bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause?.isTypeOnly || allTypes, false);
    } else if (ts.isExportDeclaration(node)) {
      const allTypes =
        !!node.exportClause &&
        ts.isNamedExports(node.exportClause) &&
        node.exportClause.elements.length > 0 &&
        node.exportClause.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, node.isTypeOnly || allTypes, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      // `typeof import('node:http')` in a type position
      add(node.argument.literal as ts.Expression, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const FILES = tsFiles(SRC)
  .sort()
  .map((abs) => {
    const text = fs.readFileSync(abs, 'utf8');
    return {
      file: rel(abs),
      lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
      imports: importsOf(abs, text),
    };
  });

/** src/cli/commands/x.ts → cli */
const folderOf = (file: string) => file.split('/')[1]!;
const under = (file: string, ...folders: string[]) => folders.some((f) => file.startsWith(`src/${f}/`));

/** Every import (types and lazy loads count: they tie the folders together all the same) that breaks a rule. */
function violations(
  from: (file: string) => boolean,
  to: (target: string) => boolean,
  files: ReadonlyArray<{ file: string; imports: Import[] }> = FILES,
): string[] {
  return files
    .filter((f) => from(f.file))
    .flatMap((f) => f.imports.filter((i) => to(i.target)).map((i) => `${f.file} → ${i.target}`));
}

/** Who imports whom at load time: static value imports between files of src/. */
function loadGraph(): Map<string, string[]> {
  return graphOf((i) => !i.typeOnly && !i.dynamic);
}

/** Who depends on whom: every static import, type-only ones too (they tie the files together all the same). */
function dependencyGraph(): Map<string, string[]> {
  return graphOf((i) => !i.dynamic);
}

function graphOf(counts: (i: Import) => boolean): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of FILES) {
    const targets = f.imports.filter((i) => counts(i) && i.target.startsWith('src/')).map((i) => i.target);
    graph.set(f.file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle of `graph`, each as a path a → b → … → a (one per strongly connected group). */
function cyclesIn(graph: Map<string, string[]>): string[] {
  // Tarjan's strongly connected components
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) connect(v);
  // one concrete cycle per group: the shortest way back to its first file (breadth first)
  return groups.map((group) => {
    const members = new Set(group);
    const start = [...group].sort()[0]!;
    const prev = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    while (queue.length && !last) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          last = v;
          break;
        }
        if (!prev.has(w)) {
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    const chain = [start];
    for (let v = last!; v !== start; v = prev.get(v)!) chain.splice(1, 0, v);
    const all = group.length > chain.length ? ` (${group.length} files in all: ${[...group].sort().join(', ')})` : '';
    return `${[...chain, start].join(' → ')}${all}`;
  });
}

const report = (what: string, found: string[]) => (found.length ? `${what}:\n  ${found.join('\n  ')}` : '');

describe('architecture of src/', () => {
  it('reads the source (the checks below are not vacuous)', () => {
    expect(FILES.length).toBeGreaterThan(50);
    const run = FILES.find((f) => f.file === 'src/cli/run.ts');
    expect(run?.imports.map((i) => i.target)).toContain('src/cli/program/build.ts');
    expect(new Set(FILES.map((f) => folderOf(f.file)))).toEqual(
      new Set(['api', 'cli', 'config', 'core', 'server', 'ui', 'vendor', 'contract.ts']),
    );
  });

  it('(a) nothing under src/api, src/config, src/ui, src/server or src/core imports from src/cli', () => {
    const found = violations(
      (f) => under(f, 'api', 'config', 'ui', 'server', 'core'),
      (t) => under(t, 'cli'),
    );
    expect(found, report('imports of src/cli from a lower layer', found)).toEqual([]);
  });

  it('(b) src/core imports from no other folder of src/', () => {
    const found = violations(
      (f) => under(f, 'core'),
      (t) => t.startsWith('src/') && !under(t, 'core'),
    );
    expect(found, report('src/core importing from elsewhere in src/', found)).toEqual([]);
  });

  it('(c) src/server imports from neither src/cli, src/api nor src/ui', () => {
    const found = violations(
      (f) => under(f, 'server'),
      (t) => under(t, 'cli', 'api', 'ui'),
    );
    expect(found, report('src/server importing the client side', found)).toEqual([]);
  });

  it('(d) there is no import cycle among the files of src/ (static imports; type-only imports aside)', () => {
    const found = cyclesIn(loadGraph());
    expect(found, report('import cycles', found)).toEqual([]);
  });

  it('(d) nor one through a type-only import', () => {
    const found = cyclesIn(dependencyGraph());
    expect(found, report('import cycles (type-only imports included)', found)).toEqual([]);
  });

  it('(g) the REPL imports neither the API client nor a command: it is handed what it sends with', () => {
    const found = violations(
      (f) => under(f, 'cli/repl'),
      (t) => under(t, 'api', 'cli/commands'),
    );
    expect(found, report('imports of src/api or src/cli/commands from src/cli/repl', found)).toEqual([]);
  });

  it("(h) src/api imports nothing of the terminal (src/ui): masking is src/core's", () => {
    const found = violations(
      (f) => under(f, 'api'),
      (t) => under(t, 'ui'),
    );
    expect(found, report('imports of src/ui from src/api', found)).toEqual([]);
  });

  it(`(e) no file under src/ has more than ${MAX_LINES} lines`, () => {
    const found = FILES.filter((f) => f.lines > MAX_LINES).map((f) => `${f.file}: ${f.lines} lines`);
    expect(found, report(`files over ${MAX_LINES} lines`, found)).toEqual([]);
  });

  it(`(f) the top level of src/cli holds at most ${MAX_CLI_TOP_FILES} files`, () => {
    const top = fs
      .readdirSync(path.join(SRC, 'cli'), { withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name)
      .sort();
    expect(top.length, `src/cli holds ${top.length} files: ${top.join(', ')}`).toBeLessThanOrEqual(MAX_CLI_TOP_FILES);
  });
});

describe('the checks themselves', () => {
  it('tell type-only, dynamic and value imports apart', () => {
    const found = importsOf(
      path.join(SRC, 'cli/x.ts'),
      [
        "import type { A } from './spec.js';",
        "import { type B, type C } from './globals.js';",
        "import { D, type E } from './exit-codes.js';",
        "export type { F } from './registry.js';",
        "export { G } from './run.js';",
        "const m = () => import('./context.js');",
        "import http from 'node:http';",
      ].join('\n'),
    );
    expect(found).toEqual([
      { target: 'src/cli/spec.ts', typeOnly: true, dynamic: false },
      { target: 'src/cli/globals.ts', typeOnly: true, dynamic: false },
      { target: 'src/cli/exit-codes.ts', typeOnly: false, dynamic: false },
      { target: 'src/cli/registry.ts', typeOnly: true, dynamic: false },
      { target: 'src/cli/run.ts', typeOnly: false, dynamic: false },
      { target: 'src/cli/context.ts', typeOnly: false, dynamic: true },
      { target: 'node:http', typeOnly: false, dynamic: false },
    ]);
  });

  it('name each import that breaks a rule, type-only and lazy ones too', () => {
    const imp = (target: string, typeOnly = false, dynamic = false): Import => ({ target, typeOnly, dynamic });
    const files = [
      { file: 'src/api/client.ts', imports: [imp('src/core/errors.ts'), imp('src/cli/context.ts', true)] },
      { file: 'src/ui/printer.ts', imports: [imp('src/cli/run.ts', false, true), imp('node:tty')] },
      { file: 'src/cli/run.ts', imports: [imp('src/cli/globals.ts')] },
    ];
    expect(
      violations(
        (f) => under(f, 'api', 'ui'),
        (t) => under(t, 'cli'),
        files,
      ),
    ).toEqual(['src/api/client.ts → src/cli/context.ts', 'src/ui/printer.ts → src/cli/run.ts']);
  });

  it('find a cycle and name its files, and pass a graph without one', () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(cyclesIn(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
    expect(cyclesIn(g({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual(['a → b → c → a']);
    expect(cyclesIn(g({ a: ['a'] }))).toEqual(['a → a']);
    // two ways round one group: the shortest is shown, and every member is named
    expect(cyclesIn(g({ a: ['b', 'c'], b: ['a'], c: ['b'] }))).toEqual(['a → b → a (3 files in all: a, b, c)']);
  });
});
