// What every benchmark hands back to bench/run.ts: tables for people, metrics for bench.json, and the
// problems that make `npm run bench` exit non-zero. A budget is reported as a number AND as a ratio
// against a reference measured in the same run, so a slower machine does not read as a regression.
export type Cell = string | number;

export type Table = {
  title: string;
  columns: string[];
  rows: Cell[][];
};

export type BenchResult = {
  name: string;
  title: string;
  tables: Table[];
  // Flat, unit-suffixed numbers (`gzipBytes`, `rps`, `growthMB`) for tools reading bench.json.
  metrics: Record<string, number>;
  notes: string[];
  // Rules broken (a pdfjs chunk on the list's path, a failed request); any problem fails the run.
  problems: string[];
};

export type Bench = {
  name: string;
  title: string;
  // Left out of `npm run bench` without names (too long to run every time).
  onlyWhenNamed?: boolean;
  run(): Promise<BenchResult>;
};

const KIB = 1024;
const MIB = 1024 * 1024;

export function kib(bytes: number): string {
  return `${(bytes / KIB).toFixed(1)} KB`;
}

export function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MB`;
}

export function ms(value: number): string {
  return `${value.toFixed(value < 10 && !Number.isInteger(value) ? 2 : 0)} ms`;
}

export function ratio(value: number): string {
  return `${value.toFixed(2)}x`;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function isNumeric(cell: Cell): boolean {
  return typeof cell === 'number' || /^[\d.,]+( ?[a-zA-Z/%]+)?x?$/.test(cell);
}

export function formatTable(table: Table): string {
  const cells = [
    table.columns,
    ...table.rows.map((row) =>
      row.map((cell) => (typeof cell === 'number' ? cell.toLocaleString('en-US') : cell)),
    ),
  ];
  const widths = table.columns.map((_, column) =>
    Math.max(...cells.map((row) => (row[column] ?? '').length)),
  );
  // A column is right-aligned when every filled cell in it is a number (with or without a unit).
  const numeric = table.columns.map((_, column) => {
    const filled = table.rows.map((row) => row[column] ?? '').filter((cell) => cell !== '');
    return filled.length > 0 && filled.every(isNumeric);
  });
  const line = (row: string[]): string =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? cell.length;
        return numeric[column] === true ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const header = cells[0] ?? [];
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [table.title, line(header), rule, ...cells.slice(1).map(line)].join('\n');
}
