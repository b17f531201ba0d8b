// An operator reads every warning at start-up as something to act on: a server started as configured says
// nothing at warn level or above.
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.ts';

describe('start-up', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('logs no warning for a plain configuration', async () => {
    t = await buildTestApp();
    const lines = t
      .logs()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { level: number; msg?: string });
    expect(lines.filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([]);
  });
});
