// A QR code of the identity app's link, drawn as SVG rectangles from uqr's module matrix (never markup
// from a string). Loaded with the confirmation's first opening, so no other screen carries the encoder.
import { useMemo } from 'react';
import { encode } from 'uqr';

/** One rectangle per run of dark modules in a row: a few hundred elements instead of thousands. */
export function darkRuns(rows: readonly (readonly boolean[])[]): { x: number; y: number; width: number }[] {
  const runs: { x: number; y: number; width: number }[] = [];
  rows.forEach((row, y) => {
    let start = -1;
    for (let x = 0; x <= row.length; x += 1) {
      const isDark = row[x] === true;
      if (isDark && start < 0) start = x;
      if (!isDark && start >= 0) {
        runs.push({ x: start, y, width: x - start });
        start = -1;
      }
    }
  });
  return runs;
}

export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { modules, runs } = useMemo(() => {
    const code = encode(text, { ecc: 'M', border: 2 });
    return { modules: code.size, runs: darkRuns(code.data) };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
    >
      <rect width={modules} height={modules} fill="#ffffff" />
      {runs.map((run) => (
        <rect key={`${run.x}:${run.y}`} x={run.x} y={run.y} width={run.width} height={1} fill="#000000" />
      ))}
    </svg>
  );
}
