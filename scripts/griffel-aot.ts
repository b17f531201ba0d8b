// Griffel's styles resolved when the app is built (vite.config.ts griffelAot, docs/decisions.md "The first
// screen's bundle"). Fluent's components ship their styles resolved already (`__styles` calls holding
// class names and CSS); the app's own `makeStyles`, `makeResetStyles` and `makeStaticStyles` calls were
// resolved in the browser, which kept Griffel's style compiler (stylis, the shorthand expansion, the
// hashing of every rule) in the first screen's bundle. The build now does what Griffel's Babel preset does
// for webpack: it runs each module that makes styles in Node (through a Vite server of its own, with the
// build's aliases), records what each call was given, resolves it with Griffel's own functions, and
// writes the call as the matching `__styles`, `__resetStyles` or `__staticStyles` call. The class names
// and the CSS are the very ones the browser would have made. A module whose styles cannot be resolved
// that way (its code cannot run in Node, a call outside the module's top level) fails the build.
// Two smaller steps go with it on Fluent's modules: shorthands called when they run are written as what
// they return (foldShorthands), and right-to-left twins are dropped (leftToRightOnly).
import { shorthands } from '@griffel/core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createServer, parseAst, type Alias, type Plugin, type ViteDevServer } from 'vite';

type Kind = 'makeStyles' | 'makeResetStyles' | 'makeStaticStyles';
const KINDS: readonly string[] = ['makeStyles', 'makeResetStyles', 'makeStaticStyles'];
const SOURCES: readonly string[] = ['@fluentui/react-components', '@griffel/react'];
const RESOLVED: Record<Kind, string> = {
  makeStyles: '__styles',
  makeResetStyles: '__resetStyles',
  makeStaticStyles: '__staticStyles',
};

/** What a call resolved to: the arguments of its `__` counterpart. */
type Resolved = { kind: Kind; args: unknown[] };

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Node;
  if (typeof record.type === 'string') visit(record);
  for (const value of Object.values(record)) if (typeof value === 'object') walk(value, visit);
}

/** The calls of Griffel's style makers in a module's JavaScript, in source order. */
function styleCalls(code: string): { kind: Kind; start: number; end: number; calleeEnd: number }[] {
  if (!/\bmake(Styles|ResetStyles|StaticStyles)\b/.test(code)) return [];
  const program = parseAst(code);
  const locals = new Map<string, Kind>();
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || !SOURCES.includes(String(statement.source.value))) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type !== 'ImportSpecifier') continue;
      const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : '';
      if (KINDS.includes(imported)) locals.set(specifier.local.name, imported as Kind);
    }
  }
  const calls: { kind: Kind; start: number; end: number; calleeEnd: number }[] = [];
  walk(program, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.callee as Node & { name?: string };
    const kind = callee.type === 'Identifier' ? locals.get(callee.name ?? '') : undefined;
    if (kind !== undefined) calls.push({ kind, start: node.start, end: node.end, calleeEnd: callee.end });
  });
  return calls.sort((a, b) => a.start - b.start);
}

// A Griffel shorthand called with string literals only (the build has written Fluent's tokens as strings).
const SHORTHAND_CALL =
  /(?:\/\*#__PURE__\*\/\s*)?\bshorthands\.(\w+)\(\s*((?:"[^"\\]*"|'[^'\\]*')(?:\s*,\s*(?:"[^"\\]*"|'[^'\\]*'))*)\s*\)/g;

/**
 * A few of Fluent's modules still call Griffel's shorthands when they run (style objects they kept
 * besides their resolved styles). Those calls alone kept the whole `shorthands` object, some 2 KB
 * gzipped, in the first screen's chunk, where @griffel/core lives; each is written as the object it
 * returns. A call with anything but string literals stays as it is.
 */
export function foldShorthands(code: string): string {
  if (!code.includes('shorthands.')) return code;
  const known = shorthands as unknown as Record<string, (...values: string[]) => object>;
  return code.replace(SHORTHAND_CALL, (whole, name: string, list: string) => {
    const shorthand = Object.hasOwn(known, name) ? known[name] : undefined;
    if (shorthand === undefined) return whole;
    const values = [...list.matchAll(/"([^"\\]*)"|'([^'\\]*)'/g)].map((match) => match[1] ?? match[2] ?? '');
    return JSON.stringify(shorthand(...values));
  });
}

type Literal = string | number | boolean | null | Literal[] | { [key: string]: Literal };

/** The value of an expression made of literals only (objects, arrays, strings, numbers), or undefined. */
function literalValue(node: Node): Literal | undefined {
  switch (node.type) {
    case 'Literal': {
      const value = node.value as unknown;
      return typeof value === 'string' ||
        typeof value === 'number' ||
        typeof value === 'boolean' ||
        value === null
        ? value
        : undefined;
    }
    case 'UnaryExpression': {
      // Shorthands' priorities ({ p: -1 }).
      const value = literalValue(node.argument as Node);
      return node.operator === '-' && typeof value === 'number' ? -value : undefined;
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as { value: { cooked: string | null } }[];
      const expressions = (node.expressions as Node[]).map(literalValue);
      if (expressions.some((value) => typeof value !== 'string' && typeof value !== 'number'))
        return undefined;
      return quasis.map((quasi, index) => `${quasi.value.cooked ?? ''}${expressions[index] ?? ''}`).join('');
    }
    case 'ArrayExpression': {
      const items = (node.elements as (Node | null)[]).map((element) =>
        element === null ? undefined : literalValue(element),
      );
      return items.every((item) => item !== undefined) ? (items as Literal[]) : undefined;
    }
    case 'ObjectExpression': {
      const object: Record<string, Literal> = {};
      for (const property of node.properties as Node[]) {
        if (property.type !== 'Property' || property.computed === true || property.kind !== 'init')
          return undefined;
        const key = property.key as Node & { name?: string; value?: unknown };
        const name =
          key.type === 'Identifier' ? key.name : key.type === 'Literal' ? String(key.value) : undefined;
        const value = literalValue(property.value as Node);
        if (name === undefined || value === undefined) return undefined;
        object[name] = value;
      }
      return object;
    }
    default:
      return undefined;
  }
}

/** Keeps the rules (a bucket's list, or buckets of lists) that name a class other than `dropped` only. */
function withoutRules(rules: Literal, dropped: ReadonlySet<string>, known: ReadonlySet<string>): Literal {
  if (Array.isArray(rules)) {
    return rules.filter((rule) => {
      const text = Array.isArray(rule) ? rule[0] : rule;
      if (typeof text !== 'string') return true;
      const classes = [...text.matchAll(/\.([\w-]+)/g)]
        .map(([, name]) => name ?? '')
        .filter((name) => known.has(name));
      return !(classes.length > 0 && classes.every((name) => dropped.has(name)));
    });
  }
  if (typeof rules === 'object' && rules !== null) {
    return Object.fromEntries(
      Object.entries(rules).map(([bucket, list]) => [bucket, withoutRules(list, dropped, known)]),
    );
  }
  return rules;
}

/** `__styles` arguments, left to right only: each [left-to-right, right-to-left] class pair becomes the first. */
function ltrStyles([classesBySlot, rules]: Literal[]): Literal[] | undefined {
  if (typeof classesBySlot !== 'object' || classesBySlot === null || Array.isArray(classesBySlot))
    return undefined;
  const ltr = new Set<string>();
  const rtl = new Set<string>();
  const slots: Record<string, Literal> = {};
  for (const [slot, classes] of Object.entries(classesBySlot)) {
    if (typeof classes !== 'object' || classes === null || Array.isArray(classes)) return undefined;
    slots[slot] = Object.fromEntries(
      Object.entries(classes).map(([property, mapping]) => {
        if (Array.isArray(mapping) && typeof mapping[0] === 'string' && typeof mapping[1] === 'string') {
          ltr.add(mapping[0]);
          rtl.add(mapping[1]);
          return [property, mapping[0]];
        }
        if (typeof mapping === 'string') ltr.add(mapping);
        return [property, mapping];
      }),
    );
  }
  const dropped = new Set([...rtl].filter((name) => !ltr.has(name)));
  return [slots, withoutRules(rules ?? null, dropped, new Set([...ltr, ...rtl]))];
}

/** `__resetStyles` arguments, left to right only: no right-to-left class, nor its rules. */
function ltrResetStyles([ltrClass, rtlClass, rules]: Literal[]): Literal[] | undefined {
  if (typeof ltrClass !== 'string') return undefined;
  if (typeof rtlClass !== 'string') return [ltrClass, null, rules ?? null];
  return [ltrClass, null, withoutRules(rules ?? null, new Set([rtlClass]), new Set([ltrClass, rtlClass]))];
}

/**
 * Fluent's resolved styles carry a right-to-left twin of every rule that depends on the direction
 * (paddings, margins, borders and positions on one side), which the app never uses: its languages are
 * all written left to right (the same reason, and the same switch, as the build's stand-in for
 * rtl-css-js: src/app/ltr-only-rtl-css-js.ts). Each `__styles` and `__resetStyles` call made of literals
 * keeps its left-to-right classes and rules only. Griffel picks the first class of a pair, and hashes
 * what it picked, in a left-to-right document: the classes and the rules it inserts stay the same.
 */
export function leftToRightOnly(code: string): string {
  if (!code.includes('__styles(') && !code.includes('__resetStyles(')) return code;
  const program = parseAst(code);
  const edits: { start: number; end: number; text: string }[] = [];
  walk(program, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.callee as Node & { name?: string };
    if (callee.type !== 'Identifier' || (callee.name !== '__styles' && callee.name !== '__resetStyles'))
      return;
    const args = node.arguments as Node[];
    const values = args.map(literalValue);
    if (args.length === 0 || values.some((value) => value === undefined)) return;
    const ltr =
      callee.name === '__styles' ? ltrStyles(values as Literal[]) : ltrResetStyles(values as Literal[]);
    const first = args[0];
    const last = args[args.length - 1];
    if (ltr === undefined || first === undefined || last === undefined) return;
    const text = ltr.map((value) => JSON.stringify(value)).join(', ');
    // As many lines as before, so that the lines below keep their numbers for the source map.
    const lines = '\n'.repeat(code.slice(first.start, last.end).split('\n').length - 1);
    edits.push({ start: first.start, end: last.end, text: text + lines });
  });
  let rewritten = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    rewritten = rewritten.slice(0, edit.start) + edit.text + rewritten.slice(edit.end);
  }
  return rewritten;
}

const RECORDER = '\0paraph-griffel-recorder';
const RESULTS = '__paraphGriffelAot';

// Runs in the evaluating server: resolves each call with Griffel's own functions (the server's copy of
// @griffel/core goes through the build's aliases), as makeStyles would in the browser with the default
// renderer (no class name salt), left to right. A rule two slots share (the same border colour in two
// slots) comes once per slot; it is written once, as in Fluent's own resolved styles: the renderer
// inserts a rule's text only once anyway.
const RECORDER_CODE = `
import { resolveStyleRulesForSlots, resolveResetStyleRules, resolveStaticStyleRules } from '@griffel/core';
const results = (globalThis.${RESULTS} ??= new Map());
function once(rules) {
  for (const bucket of Object.keys(rules)) {
    const seen = new Set();
    rules[bucket] = rules[bucket].filter((entry) => {
      const text = JSON.stringify(entry);
      if (seen.has(text)) return false;
      seen.add(text);
      return true;
    });
  }
  return rules;
}
export function record(id, index, kind) {
  return (styles) => {
    let args;
    if (kind === 'makeStyles') {
      const [classes, rules] = resolveStyleRulesForSlots(styles, '');
      args = [classes, once(rules)];
    } else if (kind === 'makeResetStyles') args = resolveResetStyleRules(styles, '');
    else args = [{ d: resolveStaticStyleRules(Array.isArray(styles) ? styles : [styles]) }];
    results.set(id + '#' + index, { kind, args });
    return () => { throw new Error('styles resolved at build time are not for use in Node'); };
  };
}
`;

function isAppModule(id: string, root: string): boolean {
  const file = id.split('?')[0] ?? '';
  return /\.[jt]sx?$/.test(file) && file.startsWith(`${root}/src/`);
}

function relative(root: string, id: string): string {
  return path.relative(root, id.split('?')[0] ?? '').replaceAll('\\', '/');
}

// What a style may use of @fluentui/react-components while the app's modules run at build: Griffel, the
// theme's tokens and typography, the focus styles.
const STYLE_PACKAGES: readonly string[] = [
  '@griffel/react',
  '@fluentui/react-theme',
  '@fluentui/react-tabster',
];
const COMPONENTS = '\0paraph-griffel-components';

/**
 * @fluentui/react-components for the evaluating server: the style packages' exports as they are, and for
 * every other name (the components, their hooks) a stand-in that throws when it is used, which only
 * happens if a module's top level uses it. Loading every Fluent package in Node took most of the
 * evaluation's time (some 10 s). Null, and the package itself is loaded, if its index cannot be read.
 */
function componentsStandIn(root: string): string | null {
  let index: string;
  try {
    const manifest = createRequire(path.join(root, 'package.json')).resolve(
      '@fluentui/react-components/package.json',
    );
    const { module } = JSON.parse(readFileSync(manifest, 'utf8')) as { module?: string };
    index = readFileSync(path.join(path.dirname(manifest), module ?? 'lib/index.js'), 'utf8');
  } catch {
    return null;
  }
  const lines: string[] = [
    "const standIn = (name) => { const fail = () => { throw new Error(`${name} of @fluentui/react-components ran while the build resolved the app's styles: a module's top level may use styles only`); };",
    '  return new Proxy(function () {}, { get: fail, apply: fail, construct: fail }); };',
  ];
  for (const [, list, source] of index.matchAll(/export\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    const names = (list ?? '')
      .split(',')
      .map((entry) => entry.trim().replace(/^.*\s+as\s+/, ''))
      .filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
    if (STYLE_PACKAGES.includes(source ?? '')) lines.push(`export { ${list} } from '${source}';`);
    else for (const name of names) lines.push(`export const ${name} = standIn('${name}');`);
  }
  return lines.length > 2 ? lines.join('\n') : null;
}

/** The evaluating server's plugins: @fluentui/react-components stood in for, the recorder. */
function recorder(root: string): Plugin[] {
  const components = componentsStandIn(root);
  const standIn: Plugin = {
    name: 'paraph:griffel-components',
    // Before Vite's own resolution, which would take the package itself.
    enforce: 'pre',
    resolveId(id) {
      return id === '@fluentui/react-components' && components !== null ? COMPONENTS : null;
    },
    load(id) {
      return id === COMPONENTS ? components : null;
    },
  };
  // Each style maker call records what it is given.
  return [
    standIn,
    {
      name: 'paraph:griffel-recorder',
      resolveId(id) {
        return id === RECORDER ? RECORDER : null;
      },
      load(id) {
        return id === RECORDER ? RECORDER_CODE : null;
      },
      transform(code, id) {
        if (!isAppModule(id, root)) return null;
        const calls = styleCalls(code);
        if (calls.length === 0) return null;
        const module = relative(root, id);
        let rewritten = code;
        // Back to front keeps the earlier offsets valid; the index is the call's place in source order.
        for (let index = calls.length - 1; index >= 0; index -= 1) {
          const call = calls[index];
          if (call === undefined) continue;
          const callee = `__paraphRecord(${JSON.stringify(module)}, ${index}, ${JSON.stringify(call.kind)})`;
          rewritten = rewritten.slice(0, call.start) + callee + rewritten.slice(call.calleeEnd);
        }
        return { code: `import { record as __paraphRecord } from '${RECORDER}';\n${rewritten}`, map: null };
      },
    },
  ];
}

export type GriffelAotOptions = {
  /** The build's aliases, so that the evaluating server resolves styles as the built app would. */
  aliases: Alias[];
  /**
   * The app's languages are all written left to right: Fluent's resolved styles keep their
   * left-to-right classes and rules only (leftToRightOnly). Goes with the build's stand-in for
   * rtl-css-js among `aliases`; a right-to-left language must drop both.
   */
  leftToRight: boolean;
  /**
   * The build's rewrites of the app's sources that the evaluating server makes too: the icons from their
   * own modules (iconAtoms) spare it loading every icon there is, some 4 s.
   */
  sourcePlugins: Plugin[];
};

export function griffelAot({ aliases, leftToRight, sourcePlugins }: GriffelAotOptions): Plugin {
  let root = process.cwd();
  let server: Promise<ViteDevServer> | null = null;
  const results = new Map<string, Resolved>();
  (globalThis as Record<string, unknown>)[RESULTS] = results;
  const evaluate = async (id: string): Promise<void> => {
    server ??= createServer({
      configFile: false,
      root,
      logLevel: 'error',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
      resolve: { alias: aliases },
      // Through the plugins rather than straight to Node: @griffel/core for the aliases,
      // @fluentui/react-components for its stand-in.
      ssr: { noExternal: ['@griffel/core', '@fluentui/react-components'] },
      plugins: [...recorder(root), ...sourcePlugins.map((plugin) => ({ ...plugin, apply: undefined }))],
    });
    await (await server).ssrLoadModule(id);
  };
  return {
    name: 'paraph:griffel-aot',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async transform(code, id) {
      if (/[\\/]node_modules[\\/]@fluentui[\\/].*\.js$/.test(id)) {
        const folded = foldShorthands(code);
        const rewritten = leftToRight ? leftToRightOnly(folded) : folded;
        return rewritten === code ? null : { code: rewritten, map: null };
      }
      if (!isAppModule(id, root)) return null;
      const calls = styleCalls(code);
      if (calls.length === 0) return null;
      const module = relative(root, id);
      try {
        await evaluate(id.split('?')[0] ?? id);
      } catch (error) {
        throw new Error(`paraph:griffel-aot: ${module} could not run in Node to resolve its styles`, {
          cause: error,
        });
      }
      let rewritten = code;
      for (let index = calls.length - 1; index >= 0; index -= 1) {
        const call = calls[index];
        const resolved = results.get(`${module}#${index}`);
        if (call === undefined || resolved === undefined || resolved.kind !== call.kind) {
          throw new Error(`paraph:griffel-aot: no resolved styles for call ${index} of ${module}`);
        }
        const replaced = rewritten.slice(call.start, call.end);
        const args = resolved.args.map((arg) => JSON.stringify(arg ?? null)).join(', ');
        // As many lines as the call had, so that the lines below keep their numbers for the source map.
        const lines = '\n'.repeat(replaced.split('\n').length - 1);
        rewritten = `${rewritten.slice(0, call.start)}/*#__PURE__*/__paraph${RESOLVED[call.kind]}(${args})${lines}${rewritten.slice(call.end)}`;
      }
      const helpers = [...new Set(calls.map((call) => RESOLVED[call.kind]))]
        .map((name) => `${name} as __paraph${name}`)
        .join(', ');
      // On the first line, so that the lines below keep their numbers.
      return { code: `import { ${helpers} } from '@griffel/react'; ${rewritten}`, map: null };
    },
    async buildEnd() {
      if (server !== null) await (await server).close();
      server = null;
    },
  };
}
