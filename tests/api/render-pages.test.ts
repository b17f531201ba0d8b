import { describe, expect, it } from 'vitest';
import { renderPages } from '../../server/pdf/render-pages.ts';
import { makePdf } from '../fixtures/pdfs.ts';

describe('page rendering', () => {
  it('renders every page and leaves the engine JSON.stringify in place for the rest of the server', async () => {
    const pages: number[] = [];
    for await (const page of renderPages(Buffer.from(await makePdf({ pages: 2 })))) {
      expect(page.png.subarray(1, 4).toString('latin1')).toBe('PNG');
      pages.push(page.pageNumber);
    }
    expect(pages).toEqual([1, 2]);
    // pdfjs's legacy build polyfills JSON.stringify with a slower version; every API answer uses it.
    expect(Function.prototype.toString.call(JSON.stringify)).toContain('[native code]');
  });
});
