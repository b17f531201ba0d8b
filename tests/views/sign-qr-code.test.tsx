import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { encode } from 'uqr';
import { darkRuns, QrCode } from '../../src/views/sign/qr-code';

describe('the confirmation QR code', () => {
  it('draws one rectangle per run of dark modules', () => {
    expect(
      darkRuns([
        [true, true, false, true],
        [false, false, false, false],
        [false, true, true, true],
      ]),
    ).toEqual([
      { x: 0, y: 0, width: 2 },
      { x: 3, y: 0, width: 1 },
      { x: 1, y: 2, width: 3 },
    ]);
  });

  it('covers exactly the dark modules of the encoded link, as SVG elements', () => {
    const text = 'http://localhost/idp/confirm/v1';
    render(<QrCode text={text} label="QR code" />);
    const svg = screen.getByRole('img', { name: 'QR code' });
    const { data, size } = encode(text, { ecc: 'M', border: 2 });
    const drawn = new Set<string>();
    for (const rect of Array.from(svg.querySelectorAll('rect')).slice(1)) {
      const x = Number(rect.getAttribute('x'));
      const y = Number(rect.getAttribute('y'));
      for (let dx = 0; dx < Number(rect.getAttribute('width')); dx += 1) drawn.add(`${x + dx}:${y}`);
    }
    const dark = data.flatMap((row, y) => row.flatMap((isDark, x) => (isDark ? [`${x}:${y}`] : [])));
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${size} ${size}`);
    expect([...drawn].sort()).toEqual(dark.sort());
  });
});
