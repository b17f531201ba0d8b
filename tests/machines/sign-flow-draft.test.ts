// The draft's rules the form and the placement editor share: fractions as the contract takes them, and a
// box kept on the page by the spec's limits.
import { describe, expect, it } from 'vitest';
import { clampPlacement, toFraction } from '../../machines/sign-flow-draft';

// openapi/openapi.yaml's Fraction: spec 001 §9's 4-decimal strings of fractions 0 to 1.
const CONTRACT_FRACTION = /^(0\.\d{4}|1\.0000)$/;

describe('sign flow draft', () => {
  it('writes fractions as strings of exactly 4 decimals, within 0..1', () => {
    expect(toFraction(0.15)).toBe('0.1500');
    expect(toFraction(0)).toBe('0.0000');
    expect(toFraction(1)).toBe('1.0000');
    expect(toFraction(0.5)).toBe('0.5000');
    expect(toFraction(0.72)).toBe('0.7200');
    expect(toFraction(0.05)).toBe('0.0500');
    expect(toFraction(0.0001)).toBe('0.0001');
    expect(toFraction(0.123456)).toBe('0.1235');
    expect(toFraction(0.99996)).toBe('1.0000');
    expect(toFraction(-0.2)).toBe('0.0000');
    expect(toFraction(1.7)).toBe('1.0000');
    // Binary floats that print long (0.1 + 0.2 = 0.30000000000000004) still give 4 decimals.
    expect(toFraction(0.1 + 0.2)).toBe('0.3000');
    expect(toFraction(0.15 * 3)).toBe('0.4500');
  });

  it('every fraction it writes is one the contract takes, and reads back within half a ten-thousandth', () => {
    for (let step = 0; step <= 2_000; step += 1) {
      const value = step / 2_000 + (step % 7) * 1e-6;
      const text = toFraction(value);
      expect(text).toMatch(CONTRACT_FRACTION);
      expect(Math.abs(Number(text) - Math.min(1, value))).toBeLessThanOrEqual(0.00005 + 1e-12);
    }
  });

  it('keeps the box on the page: left at most 72 %, top at least the box height', () => {
    expect(clampPlacement(0.9, 0.05)).toEqual({ left: 0.72, top: 0.15 });
    expect(clampPlacement(-0.1, 1.2)).toEqual({ left: 0, top: 1 });
    expect(clampPlacement(0.3, 0.4)).toEqual({ left: 0.3, top: 0.4 });
  });
});
