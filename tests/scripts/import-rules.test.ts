// The project's ESLint config enforces docs/architecture.md's one-way arrows between its own TypeScript
// files: an import cycle, and src/ reaching into server/, are errors. Checked on real files, since both
// rules follow imports on disk (eslint-plugin-import read only .js files until its settings said otherwise).
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
    expect(cycle['a.ts']).toContain('import/no-cycle');
    expect(cycle['b.ts']).toContain('import/no-cycle');

    const oneWay = await lint({
      'c.ts': "import { d } from './d';\nexport const c = (): number => d() + 1;\n",
      'd.ts': 'export const d = (): number => 1;\n',
    });
    expect(oneWay).toEqual({ 'c.ts': [], 'd.ts': [] });
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
