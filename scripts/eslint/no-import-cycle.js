// A module must not reach itself through its imports: docs/architecture.md's arrows go one way, and a
// cycle makes what a module sees at load time depend on which one was imported first.
//
// eslint-plugin-import's no-cycle did this by building an export map of every module it passed through
// with the TypeScript ESLint parser: 55 of lint's 85 CPU seconds. This rule needs only each module's
// import specifiers, read with TypeScript's own parser (no type information) once per file and process,
// and again only when the file changes on disk.
//
// As before: imports and re-exports that are type-only have no runtime effect and are not followed;
// dynamic imports with a literal specifier are; only the project's own files are read (relative
// specifiers), never a package.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];

/** @type {Map<string, { stamp: string, edges: string[] }>} */
const edgesByFile = new Map();

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier names, as Node and Vite resolve it here; null for a package or nothing. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  const target = path.resolve(path.dirname(from), specifier);
  if (target.split(path.sep).includes('node_modules')) return null;
  if (isFile(target)) return target;
  for (const extension of EXTENSIONS) if (isFile(target + extension)) return target + extension;
  for (const extension of EXTENSIONS) {
    const index = path.join(target, `index${extension}`);
    if (isFile(index)) return index;
  }
  return null;
}

function typeOnlyImport(node) {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function typeOnlyExport(node) {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((element) => element.isTypeOnly)
  );
}

/** The specifiers of a module's runtime imports: static, re-exports and literal dynamic imports. */
export function runtimeSpecifiers(fileName, text) {
  const kind = fileName.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : fileName.endsWith('.ts')
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const specifiers = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      if (!typeOnlyImport(statement)) specifiers.push(statement.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      if (!typeOnlyExport(statement)) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  // A walk of the whole tree only where a dynamic import can be.
  if (text.includes('import(')) {
    const visit = (node) => {
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments.length > 0 &&
        ts.isStringLiteralLike(node.arguments[0])
      ) {
        specifiers.push(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(source, visit);
  }
  return specifiers;
}

// Files whose stamp was read for the file being linted: a path search passes each many times.
let checked = new Set();

function edgesOf(file) {
  const known = edgesByFile.get(file);
  if (known !== undefined && checked.has(file)) return known.edges;
  checked.add(file);
  let stamp;
  try {
    const stat = statSync(file);
    stamp = `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return [];
  }
  if (known?.stamp === stamp) return known.edges;
  const edges = runtimeSpecifiers(file, readFileSync(file, 'utf8'))
    .map((specifier) => resolveSpecifier(file, specifier))
    .filter((target) => target !== null);
  edgesByFile.set(file, { stamp, edges });
  return edges;
}

/** The shortest chain of files from `start` back to `goal`, or null when there is none. */
function pathBack(start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  for (let index = 0; index < queue.length; index += 1) {
    const file = queue[index];
    for (const next of edgesOf(file)) {
      if (next === goal) {
        const chain = [file];
        for (let step = cameFrom.get(file); step !== null && step !== undefined; step = cameFrom.get(step)) {
          chain.unshift(step);
        }
        return chain;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'A module must not reach itself through its runtime imports.' },
    schema: [],
    messages: { cycle: 'Dependency cycle: {{chain}}.' },
  },
  create(context) {
    const self = context.filename;
    if (!existsSync(self)) return {};
    checked = new Set();
    const root = context.cwd;
    const name = (file) => path.relative(root, file);
    const check = (node, specifier) => {
      if (typeof specifier !== 'string') return;
      const target = resolveSpecifier(self, specifier);
      if (target === null || target === self) return;
      const chain = pathBack(target, self);
      if (chain !== null) {
        context.report({
          node,
          messageId: 'cycle',
          data: { chain: [self, ...chain, self].map(name).join(' → ') },
        });
      }
    };
    return {
      ImportDeclaration(node) {
        const typeOnly =
          node.importKind === 'type' ||
          (node.specifiers.length > 0 &&
            node.specifiers.every((specifier) => specifier.importKind === 'type'));
        if (!typeOnly) check(node, node.source.value);
      },
      ExportNamedDeclaration(node) {
        if (node.source === null || node.source === undefined || node.exportKind === 'type') return;
        if (
          node.specifiers.length > 0 &&
          node.specifiers.every((specifier) => specifier.exportKind === 'type')
        )
          return;
        check(node, node.source.value);
      },
      ExportAllDeclaration(node) {
        if (node.exportKind !== 'type') check(node, node.source.value);
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value);
      },
    };
  },
};
