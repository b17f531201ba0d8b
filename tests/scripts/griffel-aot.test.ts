// The build's Griffel step (scripts/griffel-aot.ts): the app's style calls come out as Griffel's own
// resolution of the very objects they were given, Fluent's run-time shorthand calls as the objects they
// return, and Fluent's resolved styles without their right-to-left twins.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tokens } from '@fluentui/react-components';
import {
  resolveResetStyleRules,
  resolveStaticStyleRules,
  resolveStyleRulesForSlots,
  shorthands,
} from '@griffel/core';
import { parseAst, type Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { foldShorthands, griffelAot, leftToRightOnly } from '../../scripts/griffel-aot';

const FIXTURE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/griffel-aot');
const FIXTURE = path.join(FIXTURE_ROOT, 'src', 'styles.ts');

// The objects tests/fixtures/griffel-aot/src/styles.ts gives its calls.
const STYLES = {
  root: {
    display: 'flex',
    gap: '12px',
    paddingLeft: tokens.spacingHorizontalM,
    ...shorthands.borderColor('red'),
    ':hover': { color: tokens.colorNeutralForeground1 },
    '@media (max-width: 599px)': { display: 'none' },
  },
  label: { animationName: { to: { opacity: 0 } }, animationDuration: '1s' },
  row: { display: 'flex', ...shorthands.borderColor('red') },
};
const BASE = { marginLeft: '4px', color: 'blue' };
const GLOBAL = { body: { margin: '0' } };

type Hook = (this: unknown, ...args: unknown[]) => unknown;

function hook(plugin: Plugin, name: 'configResolved' | 'transform' | 'buildEnd'): Hook {
  const value = plugin[name] as Hook | { handler: Hook } | undefined;
  if (value === undefined) throw new Error(`the plugin has no ${name} hook`);
  return typeof value === 'function' ? value : value.handler;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) return node.forEach((child) => walk(child, visit));
  if (typeof node !== 'object' || node === null) return;
  if (typeof (node as Node).type === 'string') visit(node as Node);
  for (const value of Object.values(node)) walk(value, visit);
}

/** Each call in `code` whose callee is named `callee…`, with its arguments (written as JSON). */
function callsOf(code: string, callee: string): { name: string; args: unknown[] }[] {
  const calls: { name: string; args: unknown[] }[] = [];
  walk(parseAst(code), (node) => {
    const target = node.callee as (Node & { name?: string }) | undefined;
    if (node.type !== 'CallExpression' || target?.type !== 'Identifier') return;
    if (!target.name?.startsWith(callee)) return;
    const args = (node.arguments as Node[]).map(
      (arg) => JSON.parse(code.slice(arg.start, arg.end)) as unknown,
    );
    calls.push({ name: target.name, args });
  });
  return calls;
}

describe("the app's style calls", () => {
  it('are written as Griffel resolves the objects they are given, each kind as its own call', async () => {
    const plugin = griffelAot({ aliases: [], leftToRight: true, sourcePlugins: [] });
    hook(plugin, 'configResolved').call(null, { root: FIXTURE_ROOT });
    try {
      const source = await readFile(FIXTURE, 'utf8');
      const built = (await hook(plugin, 'transform').call(null, source, FIXTURE)) as { code: string };
      expect(built.code).not.toMatch(/\bmake(Styles|ResetStyles|StaticStyles)\(/);
      expect(built.code).toMatch(
        /^import \{ __styles as __paraph__styles, __resetStyles as __paraph__resetStyles, __staticStyles as __paraph__staticStyles \} from '@griffel\/react';/,
      );
      expect(built.code.split('\n')).toHaveLength(source.split('\n').length);
      // Griffel gives the rules `root` and `row` share once for each; the build writes them once.
      const [classes, rules] = resolveStyleRulesForSlots(STYLES, '');
      const plain = rules.d ?? [];
      expect(new Set(plain).size).toBeLessThan(plain.length);
      expect(callsOf(built.code, '__paraph__')).toEqual([
        {
          name: '__paraph__styles',
          args: [classes, { ...rules, d: plain.filter((rule, index) => plain.indexOf(rule) === index) }],
        },
        { name: '__paraph__resetStyles', args: resolveResetStyleRules(BASE, '') },
        { name: '__paraph__staticStyles', args: [{ d: resolveStaticStyleRules([GLOBAL]) }] },
      ]);
    } finally {
      await hook(plugin, 'buildEnd').call(null);
    }
  });

  it('fails the build for a module whose top level uses more of Fluent than its styles', async () => {
    const plugin = griffelAot({ aliases: [], leftToRight: true, sourcePlugins: [] });
    hook(plugin, 'configResolved').call(null, { root: FIXTURE_ROOT });
    const file = path.join(FIXTURE_ROOT, 'src', 'top-level-component.ts');
    try {
      const source = await readFile(file, 'utf8');
      await expect(hook(plugin, 'transform').call(null, source, file)).rejects.toThrow(
        'src/top-level-component.ts could not run in Node to resolve its styles',
      );
    } finally {
      await hook(plugin, 'buildEnd').call(null);
    }
  });
});

describe('foldShorthands', () => {
  it('writes a shorthand called with strings as the object it returns', () => {
    const code = `const a = { ... /*#__PURE__*/shorthands.borderColor("var(--colorX)"), b: shorthands.padding('1px', "2px") };`;
    expect(foldShorthands(code)).toBe(
      `const a = { ... ${JSON.stringify(shorthands.borderColor('var(--colorX)'))}, b: ${JSON.stringify(shorthands.padding('1px', '2px'))} };`,
    );
  });

  it('leaves a call with anything but strings, and a name Griffel has no shorthand for', () => {
    const code = 'const a = { ...shorthands.borderColor(color), ...shorthands.nothing("x") };';
    expect(foldShorthands(code)).toBe(code);
  });
});

describe('leftToRightOnly', () => {
  it("keeps each pair's left-to-right class, and drops the rules only a right-to-left class has", () => {
    const code = `const s = __styles({
      a: { x: ["fl", "fr"], y: ["fr2", "fl2"], z: "fc", w: 0 },
      b: { v: ["fl2", "fr2"] }
    }, {
      d: [".fl{padding-left:1px;}", ".fr{padding-right:1px;}", ".fl2{left:0;}", ".fr2{right:0;}", [".fc{border:0;}", { p: -1 }]],
      m: [["@media (x){.fr{margin-right:0;}}", { m: "(x)" }], ["@media (x){.fl{margin-left:0;}}", { m: "(x)" }]]
    });`;
    const [call] = callsOf(leftToRightOnly(code), '__styles');
    expect(call?.args).toEqual([
      { a: { x: 'fl', y: 'fr2', z: 'fc', w: 0 }, b: { v: 'fl2' } },
      {
        // fr2 is a right-to-left twin in `a` but the left-to-right class of `b`: its rule stays.
        d: ['.fl{padding-left:1px;}', '.fl2{left:0;}', '.fr2{right:0;}', ['.fc{border:0;}', { p: -1 }]],
        m: [['@media (x){.fl{margin-left:0;}}', { m: '(x)' }]],
      },
    ]);
  });

  it("drops a reset's right-to-left class and its rules, and keeps the line count", () => {
    const code = `const r = __resetStyles("rl", "rr", [".rl{left:0;}", ".rl::after{left:0;}",\n ".rr{right:0;}", ".rr>.fui-X{right:0;}"]);`;
    const written = leftToRightOnly(code);
    expect(callsOf(written, '__resetStyles')[0]?.args).toEqual([
      'rl',
      null,
      ['.rl{left:0;}', '.rl::after{left:0;}'],
    ]);
    expect(written.split('\n')).toHaveLength(2);
  });

  it('leaves a call that is not made of literals alone', () => {
    const code = 'const s = __styles({ a: { x: ["fl", "fr"] } }, { d: rules });';
    expect(leftToRightOnly(code)).toBe(code);
  });
});
