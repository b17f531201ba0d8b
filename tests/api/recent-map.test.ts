import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../server/recent-map.ts';

describe('RecentMap', () => {
  it('forgets the least recently used, reading counting as a use, down to nine tenths of its limit', () => {
    const map = new RecentMap<number, string>(10);
    for (let key = 0; key < 10; key += 1) map.set(key, `v${key}`);
    expect(map.get(0)).toBe('v0');
    map.set(3, 'again');
    map.set(10, 'v10');
    expect([...map.keys()].sort((a, b) => a - b)).toEqual([0, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(map.get(3)).toBe('again');
    expect(map.get(1)).toBeUndefined();
    expect(map.size).toBe(9);
  });

  it('keeps a map under its limit however many entries come', () => {
    const map = new RecentMap<string, number>(32);
    for (let at = 0; at < 1_000; at += 1) {
      map.set(`key ${at}`, at);
      expect(map.get('key 0')).toBe(0);
      expect(map.size).toBeLessThanOrEqual(32);
    }
    expect(map.get('key 999')).toBe(999);
  });
});
