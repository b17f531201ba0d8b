import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQuickGuidePdf, buildQuickGuides } from '../../scripts/quick-guides';
import { QUICK_GUIDES } from '../../src/help/quick-guide';

const run = promisify(execFile);

// What a reader finds in each guide: its title, words with the language's accents, and the page footer.
const EXPECTED = {
  en: ['Paraph quick guide', 'Start a sign flow', 'Resend Confirmation', 'Page 1 of'],
  es: ['Guía rápida de Paraph', 'contraseña', 'Añadir un contacto', 'Configuración', 'Página 1 de'],
  fr: ['Guide rapide de Paraph', 'Téléverser', 'À faire', 'Paramètres', 'l’adresse e-mail', 'Page 1 sur'],
} as const;

describe('the quick-guide PDFs', () => {
  let dir: string;
  let files: Map<string, Uint8Array>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-guides-'));
    files = await buildQuickGuides();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes one guide per language under its fixed name', () => {
    expect([...files.keys()].sort()).toEqual([
      'help/quick-guide-en.pdf',
      'help/quick-guide-es.pdf',
      'help/quick-guide-fr.pdf',
    ]);
  });

  it.each(['en', 'es', 'fr'] as const)(
    'the %s guide parses, has several pages and reads in its language',
    async (locale) => {
      const bytes = files.get(`help/quick-guide-${locale}.pdf`);
      expect(bytes).toBeDefined();
      const pdf = await PDFDocument.load(bytes ?? new Uint8Array());
      const pages = pdf.getPageCount();
      expect(pages).toBeGreaterThan(1);
      expect(pdf.getTitle()).toBe(QUICK_GUIDES[locale].title);

      const file = path.join(dir, `${locale}.pdf`);
      await writeFile(file, bytes ?? new Uint8Array());
      const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
      const text = stdout.replace(/\s+/g, ' ');
      expect(text.startsWith(QUICK_GUIDES[locale].title)).toBe(true);
      for (const words of EXPECTED[locale]) expect(text, words).toContain(words);
      expect(text).toContain(
        QUICK_GUIDES[locale].pageLabel.replace('{page}', String(pages)).replace('{total}', String(pages)),
      );
      // Nothing was drawn as a replacement character.
      expect(text).not.toMatch(/[?�]{2}|\S\?\S/);
    },
  );

  it('gives the same bytes for the same text (no dates inside), so a build changes them only with the guide', async () => {
    const again = await buildQuickGuidePdf('es');
    expect(Buffer.from(again).equals(Buffer.from(files.get('help/quick-guide-es.pdf') ?? []))).toBe(true);
  });

  it('refuses a character Helvetica cannot draw instead of printing it wrongly', async () => {
    const guide = { ...QUICK_GUIDES.en, sections: [{ heading: 'Signing ✍', paragraphs: ['Sign here.'] }] };
    await expect(buildQuickGuidePdf('en', guide)).rejects.toThrow(/cannot draw "✍"/);
  });

  it('keeps the three guides in step: the same sections in every language', () => {
    const shape = (locale: 'en' | 'es' | 'fr') =>
      QUICK_GUIDES[locale].sections.map((section) => section.paragraphs.length);
    expect(shape('es')).toEqual(shape('en'));
    expect(shape('fr')).toEqual(shape('en'));
  });
});
