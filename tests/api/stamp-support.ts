// Reading a stamp back from a signed PDF for the stamp's tests, with tools that share no code with the
// engine: poppler's pdftotext, pdffonts and pdftoppm, and a small reader of the appearance stream that
// measures every line with the widths the embedded fonts declare (/W), as a reader advances.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  decodePDFRawStream,
  type PDFObject,
} from 'pdf-lib';

export const run = promisify(execFile);

export type Workspace = {
  file(name: string, bytes: Uint8Array): Promise<string>;
  dir: string;
  close(): Promise<void>;
};

export async function workspace(prefix: string): Promise<Workspace> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  let counter = 0;
  return {
    dir,
    async file(name, bytes) {
      counter += 1;
      const file = path.join(dir, `${counter}-${name}`);
      await writeFile(file, bytes);
      return file;
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

// pdftotext marks right-to-left text with embedding controls; the words are what is compared.
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text poppler extracts from one page (1-based), bidi controls left out. */
export async function pageText(ws: Workspace, pdf: Uint8Array, pageNumber: number): Promise<string> {
  const file = await ws.file('text.pdf', pdf);
  const { stdout } = await run('pdftotext', ['-f', String(pageNumber), '-l', String(pageNumber), file, '-']);
  return stdout.replace(BIDI_CONTROLS, '');
}

export type PdfFont = { name: string; type: string; embedded: boolean; subset: boolean; unicode: boolean };

/** pdffonts' table for one page: every font its content and its annotations' appearances use. */
export async function pageFonts(ws: Workspace, pdf: Uint8Array, pageNumber: number): Promise<PdfFont[]> {
  const file = await ws.file('fonts.pdf', pdf);
  const { stdout } = await run('pdffonts', ['-f', String(pageNumber), '-l', String(pageNumber), file]);
  return stdout
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      // name, type (may hold spaces), encoding, then emb sub uni and the object id.
      const match = /^(\S+)\s+(.+?)\s+(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.exec(line);
      if (!match) throw new Error(`pdffonts line not understood: ${line}`);
      return {
        name: match[1] ?? '',
        type: match[2] ?? '',
        embedded: match[4] === 'yes',
        subset: match[5] === 'yes',
        unicode: match[6] === 'yes',
      };
    });
}

export type Raster = { width: number; height: number; pixel(x: number, y: number): [number, number, number] };

/** One page rendered by pdftoppm, read from its PPM output; with `png`, also kept as a PNG to look at. */
/** A binary PPM (pdftoppm's default output) as pixels. */
export function readPpm(ppm: Buffer): Raster {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('Not a PPM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const offset = header[0].length;
  return {
    width,
    height,
    pixel: (x, y) => {
      const at = offset + (y * width + x) * 3;
      return [ppm[at] ?? 0, ppm[at + 1] ?? 0, ppm[at + 2] ?? 0];
    },
  };
}

export async function renderPage(
  ws: Workspace,
  pdf: Uint8Array,
  pageNumber: number,
  dpi = 50,
  png?: string,
): Promise<Raster> {
  const file = await ws.file('render.pdf', pdf);
  const prefix = path.join(ws.dir, `render-${path.basename(file, '.pdf')}`);
  const page = ['-f', String(pageNumber), '-l', String(pageNumber), '-singlefile'];
  await run('pdftoppm', ['-r', String(dpi), ...page, file, prefix]);
  if (png !== undefined) await run('pdftoppm', ['-r', String(dpi), '-png', ...page, file, png]);
  return readPpm(await readFile(`${prefix}.ppm`));
}

/** Pixels that are not white, and those of the stamp's blue border, in a box given in pixels. */
export function inkIn(
  raster: Raster,
  box: { left: number; top: number; right: number; bottom: number },
): { ink: number; blue: number } {
  let ink = 0;
  let blue = 0;
  for (let y = Math.max(0, Math.floor(box.top)); y < Math.min(raster.height, Math.ceil(box.bottom)); y += 1) {
    for (
      let x = Math.max(0, Math.floor(box.left));
      x < Math.min(raster.width, Math.ceil(box.right));
      x += 1
    ) {
      const [r, g, b] = raster.pixel(x, y);
      if (r < 200 || g < 200 || b < 200) ink += 1;
      if (b > 150 && r < 80) blue += 1;
    }
  }
  return { ink, blue };
}

export type DrawnLine = {
  /** The baseline, from the box's bottom. */
  y: number;
  xMin: number;
  xMax: number;
  size: number;
  /** Every CID shown on the line. */
  cids: number[];
};

export type Appearance = {
  /** The widget's rectangle in the page's user space. */
  rect: [number, number, number, number];
  bbox: [number, number, number, number];
  content: string;
  lines: DrawnLine[];
};

const num = (object: PDFObject | undefined): number => (object instanceof PDFNumber ? object.asNumber() : 0);

/** A Type 0 font's advance widths by CID (its /W array), in thousandths of the size. */
function widthsOf(font: PDFDict): Map<number, number> {
  const widths = new Map<number, number>();
  const descendants = font.lookup(PDFName.of('DescendantFonts'));
  const cidFont = descendants instanceof PDFArray ? descendants.lookup(0) : undefined;
  const w = cidFont instanceof PDFDict ? cidFont.lookup(PDFName.of('W')) : undefined;
  if (!(w instanceof PDFArray)) return widths;
  for (let index = 0; index + 1 < w.size(); index += 2) {
    const first = num(w.lookup(index));
    const list = w.lookup(index + 1);
    if (!(list instanceof PDFArray)) throw new Error('Only /W lists of the form c [w1 w2 …] are read here.');
    list.asArray().forEach((width, offset) => widths.set(first + offset, num(width)));
  }
  return widths;
}

/** The n-th signature widget of a page (0-based): its rectangle and its appearance's box. */
export async function readWidget(
  pdf: Uint8Array,
  pageIndex: number,
  widgetIndex = 0,
): Promise<Pick<Appearance, 'rect' | 'bbox'>> {
  const { rect, bbox } = await widgetOf(pdf, pageIndex, widgetIndex);
  return { rect, bbox };
}

/** Reads the n-th signature widget of a page (0-based) and measures what its appearance draws. */
export async function readAppearance(
  pdf: Uint8Array,
  pageIndex: number,
  widgetIndex = 0,
): Promise<Appearance> {
  const { rect, bbox, stream } = await widgetOf(pdf, pageIndex, widgetIndex);
  const resources = stream.dict.lookup(PDFName.of('Resources'), PDFDict);
  const fontDict = resources.lookup(PDFName.of('Font'), PDFDict);
  const fonts = new Map<string, Map<number, number>>();
  for (const [name] of fontDict.entries()) {
    fonts.set(name.asString(), widthsOf(fontDict.lookup(name, PDFDict)));
  }
  const content = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
  return { rect, bbox, content, lines: measureLines(content, fonts) };
}

async function widgetOf(pdf: Uint8Array, pageIndex: number, widgetIndex: number) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const annots = doc.getPage(pageIndex).node.lookup(PDFName.of('Annots'), PDFArray);
  const widgets = annots
    .asArray()
    .map((_, index) => annots.lookup(index))
    .filter(
      (annot): annot is PDFDict =>
        annot instanceof PDFDict && annot.lookup(PDFName.of('FT')) === PDFName.of('Sig'),
    );
  const widget = widgets[widgetIndex];
  if (widget === undefined) throw new Error(`no signature widget ${widgetIndex} on page ${pageIndex + 1}`);
  const rect = widget.lookup(PDFName.of('Rect'), PDFArray).asArray().map(num) as Appearance['rect'];
  const stream = widget.lookup(PDFName.of('AP'), PDFDict).lookup(PDFName.of('N'));
  if (!(stream instanceof PDFRawStream)) throw new Error('no appearance stream');
  const bbox = stream.dict.lookup(PDFName.of('BBox'), PDFArray).asArray().map(num) as Appearance['bbox'];
  return { rect, bbox, stream };
}

// What the stamp's stream uses: BT/ET, Td, Tf, Ts, TJ and Tj with hex strings.
function measureLines(content: string, fonts: Map<string, Map<number, number>>): DrawnLine[] {
  const tokens = content.match(/\[|\]|<[0-9A-Fa-f\s]*>|\/[^\s/[\]<>()]+|-?\d*\.?\d+|[A-Za-z*'"]+/g) ?? [];
  const lines: DrawnLine[] = [];
  let stack: (string | number | (string | number)[])[] = [];
  let array: (string | number)[] | null = null;
  let lineX = 0;
  let lineY = 0;
  let pen = 0;
  let font = new Map<number, number>();
  let size = 0;
  let line: DrawnLine | null = null;
  const show = (items: (string | number)[]) => {
    if (line === null || line.y !== lineY) {
      line = { y: lineY, xMin: lineX + pen, xMax: lineX + pen, size, cids: [] };
      lines.push(line);
    }
    for (const item of items) {
      if (typeof item === 'number') {
        pen -= (item / 1000) * size;
        continue;
      }
      const hex = item.slice(1, -1).replace(/\s/g, '');
      for (let at = 0; at < hex.length; at += 4) {
        const cid = Number.parseInt(hex.slice(at, at + 4), 16);
        const width = font.get(cid);
        if (width === undefined) throw new Error(`CID ${cid} has no width in its font`);
        line.cids.push(cid);
        line.xMin = Math.min(line.xMin, lineX + pen);
        pen += (width / 1000) * size;
        line.xMax = Math.max(line.xMax, lineX + pen);
      }
    }
  };
  for (const token of tokens) {
    if (token === '[') {
      array = [];
    } else if (token === ']') {
      if (array !== null) stack.push(array);
      array = null;
    } else if (/^-?\d*\.?\d+$/.test(token)) {
      if (array !== null) array.push(Number(token));
      else stack.push(Number(token));
    } else if (token.startsWith('<') || token.startsWith('/')) {
      if (array !== null) array.push(token);
      else stack.push(token);
    } else {
      if (token === 'BT') {
        lineX = 0;
        lineY = 0;
        pen = 0;
      } else if (token === 'Td') {
        const [x, y] = stack.slice(-2) as [number, number];
        lineX += x;
        lineY += y;
        pen = 0;
      } else if (token === 'Tf') {
        const [name, fontSize] = stack.slice(-2) as [string, number];
        const widths = fonts.get(name);
        if (widths === undefined) throw new Error(`font ${name} is not in the resources`);
        font = widths;
        size = fontSize;
      } else if (token === 'TJ') {
        show(stack.at(-1) as (string | number)[]);
      } else if (token === 'Tj') {
        show([stack.at(-1) as string]);
      }
      stack = [];
    }
  }
  return lines;
}
