// Values JSON cannot carry, as the QA path exporter writes them: tagged, never dropped or flattened, and
// read back as they were where JSON's reader can have them.
import { describe, expect, it } from 'vitest';
import { formatValue, fromPlainJson, toPlainJson } from '../../scripts/lib/plain-json';

const throughJson = (value: unknown) => JSON.parse(JSON.stringify(toPlainJson(value))) as never;

describe('toPlainJson', () => {
  it('leaves what JSON carries as it is', () => {
    const value = { name: 'Ada', count: 2, isOn: false, none: null, list: [1, 'two', { three: 3 }] };
    expect(toPlainJson(value)).toEqual(value);
  });

  it('tags what JSON would drop or flatten, and reads it back', () => {
    class Point {
      readonly x: number;
      readonly y: number;

      constructor(x: number, y: number) {
        this.x = x;
        this.y = y;
      }
    }
    const value = {
      output: undefined,
      list: [undefined, Number.NaN, Number.POSITIVE_INFINITY, -0],
      big: 12n,
      at: new Date('2030-01-01T09:00:00.000Z'),
      pattern: /a+b/gi,
      byId: new Map<unknown, unknown>([
        ['d1', { state: 'signed' }],
        [2, undefined],
      ]),
      ids: new Set(['d1', 'd2']),
      failure: new TypeError('Cannot read properties of undefined'),
      bytes: new Uint8Array([1, 2, 255]),
      // A plain object that happens to use the tag's key stays a plain object.
      tagged: { $type: 'Date', value: 'not a date' },
    };
    const json = throughJson(value);
    expect(json).toMatchObject({
      output: { $type: 'undefined' },
      big: { $type: 'bigint', value: '12' },
      at: { $type: 'Date', value: '2030-01-01T09:00:00.000Z' },
      tagged: { $type: 'object', value: { $type: 'Date', value: 'not a date' } },
    });
    const back = fromPlainJson(json) as typeof value;
    expect(back).toEqual(value);
    expect(Object.hasOwn(back, 'output')).toBe(true);
    expect(Object.is(back.list[3], -0)).toBe(true);
    expect(back.failure).toBeInstanceOf(Error);
    expect(back.failure.name).toBe('TypeError');
    expect(back.bytes).toBeInstanceOf(Uint8Array);

    expect(throughJson({ point: new Point(1, 2) })).toEqual({
      point: { $type: 'instance', class: 'Point', value: { x: 1, y: 2 } },
    });
  });

  it('describes what cannot be read back: functions, files, circular references', () => {
    function confirm() {}
    const cycle: { name: string; self?: unknown } = { name: 'loop' };
    cycle.self = cycle;
    const file = new File(['%PDF-1.7\n'], 'contract.pdf', { type: 'application/pdf', lastModified: 0 });
    expect(
      throughJson({
        confirm,
        blob: new Blob(['%PDF'], { type: 'application/pdf' }),
        file,
        cycle,
        url: new URL('https://paraph.test/a?b=1'),
      }),
    ).toEqual({
      confirm: { $type: 'function', name: 'confirm' },
      blob: { $type: 'Blob', size: 4, type: 'application/pdf' },
      file: { $type: 'File', name: 'contract.pdf', size: 9, type: 'application/pdf', lastModified: 0 },
      cycle: { name: 'loop', self: { $type: 'circular' } },
      url: { $type: 'instance', class: 'URL', value: 'https://paraph.test/a?b=1' },
    });
  });

  it('gives two values JSON.stringify prints alike two different encodings', () => {
    const pairs: [unknown, unknown][] = [
      [{ output: undefined }, {}],
      [new Map([['a', 1]]), {}],
      [Number.NaN, null],
      [new Date('2030-01-01T09:00:00.000Z'), '2030-01-01T09:00:00.000Z'],
      [new Blob(['x']), new Blob(['xy'])],
    ];
    for (const [left, right] of pairs) {
      expect(JSON.stringify(toPlainJson(left))).not.toBe(JSON.stringify(toPlainJson(right)));
    }
  });
});

describe('formatValue', () => {
  it('reads as JSON for plain data and spells out the rest', () => {
    expect(formatValue({ name: 'Ada', list: [1, null] })).toBe('{"name":"Ada","list":[1,null]}');
    expect(formatValue(undefined)).toBe('undefined');
    expect(formatValue({ output: undefined, big: 3n, at: new Date(0) })).toBe(
      '{"output":undefined,"big":3n,"at":Date(1970-01-01T00:00:00.000Z)}',
    );
    expect(formatValue(new Blob(['%PDF'], { type: 'application/pdf' }))).toBe(
      'Blob(4 bytes, application/pdf)',
    );
    expect(formatValue(new Map([['d1', true]]))).toBe('Map{"d1" => true}');
    expect(formatValue(new Set([1]))).toBe('Set[1]');
    expect(formatValue(new URL('https://paraph.test/'))).toBe('URL("https://paraph.test/")');
    expect(formatValue(() => {})).toBe('function (anonymous)');
  });
});
