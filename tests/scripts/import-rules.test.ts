// The project's ESLint config enforces docs/architecture.md's one-way arrows between its own TypeScript
// files: an import cycle (scripts/eslint/no-import-cycle.js), and src/ reaching into server/, are errors.
// Checked on real files, since both rules follow imports on disk (eslint-plugin-import read only .js files
// until its settings said otherwise).
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PROBE = path.join(ROOT, 'src', `lint-probe-${randomUUID()}`);

async function lint(files: Record<string, string>): Promise<Record<string, string[]>> {
  for (const [name, code] of Object.entries(files)) await writeFile(path.join(PROBE, name), code);
  const eslint = new ESLint({ cwd: ROOT });
  const results = await eslint.lintFiles(Object.keys(files).map((name) => path.join(PROBE, name)));
  return Object.fromEntries(
    results.map((result) => [
      path.basename(result.filePath),
      result.messages.map((message) => message.ruleId ?? message.message),
    ]),
  );
}

beforeAll(async () => {
  await mkdir(PROBE, { recursive: true });
});

afterAll(async () => {
  await rm(PROBE, { recursive: true, force: true });
});

describe('the import rules of eslint.config.js', () => {
  it('flag a cycle between two TypeScript modules, and not a one-way import', async () => {
    const cycle = await lint({
      'a.ts': "import { b } from './b';\nexport const a = (): number => b() + 1;\n",
      'b.ts': "import { a } from './a';\nexport const b = (): number => a() - 1;\n",
    });
    expect(cycle['a.ts']).toContain('paraph-imports/no-import-cycle');
    expect(cycle['b.ts']).toContain('paraph-imports/no-import-cycle');

    const oneWay = await lint({
      'c.ts': "import { d } from './d';\nexport const c = (): number => d() + 1;\n",
      'd.ts': 'export const d = (): number => 1;\n',
    });
    expect(oneWay).toEqual({ 'c.ts': [], 'd.ts': [] });
  });

  it('follow re-exports and dynamic imports through several files, and not type-only imports', async () => {
    const longCycle = await lint({
      'g.ts': "export { h } from './h.ts';\nexport const g = 1;\n",
      'h.ts': "import { i } from './i';\nexport const h = (): number => i;\n",
      'i.ts': "export const i = 2;\nexport const later = () => import('./g.ts');\n",
    });
    expect(longCycle['g.ts']).toContain('paraph-imports/no-import-cycle');
    expect(longCycle['i.ts']).toContain('paraph-imports/no-import-cycle');

    const typesOnly = await lint({
      'j.ts': "import type { K } from './k';\nexport type J = { k: K };\nexport const j = 1;\n",
      'k.ts':
        "import { type J } from './j';\nexport type { J } from './j';\nexport type K = { j: J };\nexport const k = 2;\n",
    });
    expect(typesOnly).toEqual({ 'j.ts': [], 'k.ts': [] });
  });

  it('see a cycle made by changing a file that was already read', async () => {
    const before = await lint({
      'm.ts': "import { n } from './n';\nexport const m = (): number => n;\n",
      'n.ts': 'export const n = 1;\n',
    });
    expect(before).toEqual({ 'm.ts': [], 'n.ts': [] });
    const after = await lint({
      'n.ts': "import { m } from './m';\nexport const n = 1;\nexport const nm = m;\n",
    });
    expect(after['n.ts']).toContain('paraph-imports/no-import-cycle');
  });

  it('flag src/ importing from server/', async () => {
    const reach = await lint({
      'e.ts': "import { escapeHtml } from '../../server/pages/html.ts';\nexport const e = escapeHtml('<');\n",
    });
    expect(reach['e.ts']).toContain('import/no-restricted-paths');
  });

  it('flag src/ importing test data from tests/', async () => {
    const reach = await lint({
      'f.ts':
        "import { MACHINE_EVENTS } from '../../tests/machines/events.ts';\nexport const f = MACHINE_EVENTS;\n",
    });
    expect(reach['f.ts']).toContain('import/no-restricted-paths');
  });
});
