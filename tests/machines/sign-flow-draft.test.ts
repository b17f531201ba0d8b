// The draft's rules the form and the placement editor share: fractions as the contract takes them, and a
// box kept on the page by the spec's limits.
import { describe, expect, it } from 'vitest';
import { clampPlacement, toFraction } from '../../machines/sign-flow-draft';

const CONTRACT_FRACTION = /^(0(\.\d{1,4})?|1(\.0{1,4})?)$/;

describe('sign flow draft', () => {
  it('writes fractions with at most 4 decimals, within 0..1', () => {
    expect(toFraction(0)).toBe('0');
    expect(toFraction(1)).toBe('1');
    expect(toFraction(0.5)).toBe('0.5');
    expect(toFraction(0.123456)).toBe('0.1235');
    expect(toFraction(0.05)).toBe('0.05');
    expect(toFraction(-0.2)).toBe('0');
    expect(toFraction(1.7)).toBe('1');
    for (const value of [0, 0.00004, 0.99996, 0.3333333, 0.72, 1]) {
      expect(toFraction(value)).toMatch(CONTRACT_FRACTION);
    }
  });

  it('keeps the box on the page: left at most 72 %, top at least the box height', () => {
    expect(clampPlacement(0.9, 0.05)).toEqual({ left: 0.72, top: 0.15 });
    expect(clampPlacement(-0.1, 1.2)).toEqual({ left: 0, top: 1 });
    expect(clampPlacement(0.3, 0.4)).toEqual({ left: 0.3, top: 0.4 });
  });
});
