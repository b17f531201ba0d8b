import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { RENDER_DPI, renderPages, type RenderedPage } from '../../server/pdf/render-pages.ts';
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

  it('draws the text of a page, not only its shapes', async () => {
    // pdfjs compiles each font's data for drawing with ArrayBuffer.prototype.transferToFixedLength; where
    // that was missing (Node 20), it dropped every glyph with a warning and the page came out without text.
    const rendered: RenderedPage[] = [];
    for await (const page of renderPages(await makePdf({ text: 'Signed' }))) rendered.push(page);
    const [page] = rendered;
    if (page === undefined) throw new Error('no page rendered');
    const image = await loadImage(page.png);
    const canvas = createCanvas(page.width, page.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    // The fixture's line of 24 pt text: its baseline is 96 pt from the top, starting 72 pt from the left.
    const scale = RENDER_DPI / 72;
    const band = context.getImageData(
      Math.round(60 * scale),
      Math.round(66 * scale),
      Math.round(300 * scale),
      Math.round(40 * scale),
    ).data;
    let dark = 0;
    for (let at = 0; at < band.length; at += 4) {
      if ((band[at] ?? 255) < 128 && (band[at + 1] ?? 255) < 128 && (band[at + 2] ?? 255) < 128) dark += 1;
    }
    // "Signed (page 1)" at this size covers a few thousand pixels; an empty band has none.
    expect(dark).toBeGreaterThan(500);
  });
});
