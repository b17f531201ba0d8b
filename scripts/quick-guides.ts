// The quick-guide PDFs (src/help/quick-guide.ts) drawn with pdf-lib: a title, headings, wrapped
// paragraphs and numbered pages, A4. vite.config.ts (quickGuides) calls it at every build and serves it
// in dev; `node --import tsx scripts/quick-guides.ts <dir>` writes the three files into a folder.
// Helvetica's WinAnsi encoding draws the accents of Spanish and French; a character it cannot draw is
// an error here rather than a '?' in the guide, since the text is ours to fix.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { QUICK_GUIDES, type QuickGuide } from '../src/help/quick-guide';
import type { Locale } from '../src/i18n/locale';
import { quickGuideFileName } from '../src/services/help';

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 56;
const FOOTER_Y = 32;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const LINE_GAP = 1.4;
const PARAGRAPH_GAP = 7;
const SECTION_GAP = 14;
const BRAND = rgb(0.06, 0.36, 0.63);
const TEXT = rgb(0.12, 0.12, 0.12);
const MUTED = rgb(0.4, 0.4, 0.4);

type Style = { font: PDFFont; size: number; color: ReturnType<typeof rgb> };

export const QUICK_GUIDE_LOCALES: readonly Locale[] = ['en', 'es', 'fr'];

/** Greedy line breaking at spaces; the guides have no word longer than a line. */
function wrap(text: string, style: Style, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (current !== '' && style.font.widthOfTextAtSize(candidate, style.size) > width) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current !== '') lines.push(current);
  return lines;
}

function checkDrawable(guide: QuickGuide, font: PDFFont, locale: Locale): void {
  const drawable = new Set(font.getCharacterSet());
  const texts = [
    guide.title,
    guide.subtitle,
    guide.pageLabel,
    ...guide.sections.flatMap((s) => [s.heading, ...s.paragraphs]),
  ];
  for (const text of texts) {
    for (const char of text) {
      if (!drawable.has(char.codePointAt(0) ?? 0)) {
        throw new Error(`quick guide ${locale}: Helvetica cannot draw "${char}" in "${text.slice(0, 60)}"`);
      }
    }
  }
}

export async function buildQuickGuidePdf(
  locale: Locale,
  guide: QuickGuide = QUICK_GUIDES[locale],
): Promise<Uint8Array> {
  // No dates in the file: the same guide text always gives the same bytes.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  checkDrawable(guide, regular, locale);
  checkDrawable(guide, bold, locale);
  pdf.setTitle(guide.title);
  pdf.setAuthor('Paraph');
  pdf.setProducer('Paraph');
  pdf.setLanguage(locale);

  const styles = {
    title: { font: bold, size: 22, color: BRAND },
    subtitle: { font: regular, size: 11.5, color: MUTED },
    heading: { font: bold, size: 13.5, color: BRAND },
    body: { font: regular, size: 10.5, color: TEXT },
  } satisfies Record<string, Style>;
  const lineHeight = (style: Style) => style.size * LINE_GAP;

  let page: PDFPage = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  let y = PAGE_HEIGHT - MARGIN;
  const bottom = MARGIN + 8;

  const newPage = () => {
    page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    y = PAGE_HEIGHT - MARGIN;
  };
  const drawLine = (text: string, style: Style) => {
    y -= lineHeight(style);
    page.drawText(text, {
      x: MARGIN,
      y: y + (lineHeight(style) - style.size),
      font: style.font,
      size: style.size,
      color: style.color,
    });
  };
  // `keep` lines of what follows must fit with the block, so a heading never ends a page alone.
  const drawBlock = (lines: string[], style: Style, keep = 0) => {
    const needed = lines.length * lineHeight(style) + keep * lineHeight(styles.body);
    if (y - needed < bottom) newPage();
    for (const line of lines) {
      if (y - lineHeight(style) < bottom) newPage();
      drawLine(line, style);
    }
  };

  drawBlock(wrap(guide.title, styles.title, CONTENT_WIDTH), styles.title);
  y -= 6;
  drawBlock(wrap(guide.subtitle, styles.subtitle, CONTENT_WIDTH), styles.subtitle);
  y -= SECTION_GAP;
  page.drawLine({
    start: { x: MARGIN, y },
    end: { x: PAGE_WIDTH - MARGIN, y },
    thickness: 0.75,
    color: BRAND,
  });
  y -= SECTION_GAP;

  for (const section of guide.sections) {
    drawBlock(wrap(section.heading, styles.heading, CONTENT_WIDTH), styles.heading, 3);
    y -= 3;
    for (const paragraph of section.paragraphs) {
      drawBlock(wrap(paragraph, styles.body, CONTENT_WIDTH), styles.body);
      y -= PARAGRAPH_GAP;
    }
    y -= SECTION_GAP - PARAGRAPH_GAP;
  }

  const pages = pdf.getPages();
  pages.forEach((each, index) => {
    const label = guide.pageLabel
      .replace('{page}', String(index + 1))
      .replace('{total}', String(pages.length));
    const size = 9;
    const width = regular.widthOfTextAtSize(label, size);
    each.drawText(label, { x: (PAGE_WIDTH - width) / 2, y: FOOTER_Y, font: regular, size, color: MUTED });
  });
  return pdf.save();
}

/** Every guide, keyed by its file name under the app's base (help/quick-guide-en.pdf, ...). */
export async function buildQuickGuides(): Promise<Map<string, Uint8Array>> {
  const entries = await Promise.all(
    QUICK_GUIDE_LOCALES.map(
      async (locale) => [quickGuideFileName(locale), await buildQuickGuidePdf(locale)] as const,
    ),
  );
  return new Map(entries);
}

async function main(outDir: string): Promise<void> {
  for (const [fileName, bytes] of await buildQuickGuides()) {
    const file = path.join(outDir, fileName);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
    process.stdout.write(`${file}\n`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = process.argv[2];
  if (outDir === undefined) {
    process.stderr.write('Usage: node --import tsx scripts/quick-guides.ts <output folder>\n');
    process.exitCode = 1;
  } else {
    await main(outDir);
  }
}
