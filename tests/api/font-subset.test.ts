// The TrueType subsets the stamp embeds, read back by fontkit: every glyph the same outline and advance
// as in the whole font (composite glyphs with their components renumbered), whatever the glyph's length
// (fontkit's own subsetter garbled those of odd length), and a file whose checksums add up.
import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { subsetTrueType } from '../../server/signing/font-subset.ts';
import { faceText, type Face } from '../../server/signing/fonts.ts';

type Glyph = { id: number; advanceWidth: number; path: { toSVG(): string } };
type ParsedFont = { numGlyphs: number; getGlyph(id: number): Glyph; glyphForCodePoint(code: number): Glyph };

const parse = (bytes: Uint8Array) => fontkit.create(bytes) as unknown as ParsedFont;

async function faceOf(text: string, weight: 'regular' | 'bold'): Promise<Face> {
  const { faces } = await faceText(text, weight);
  const face = faces.find((candidate) => candidate !== null);
  if (!face) throw new Error(`no font for ${text}`);
  return face;
}

function wholeSum(bytes: Uint8Array): number {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + view.getUint32(at)) >>> 0;
  return sum;
}

describe('a TrueType subset', () => {
  it.each([
    ['Noto Sans', 'Zoë Ångström-Łukasiewicz Дмитрий Αλέξανδρος 0123', 'regular'],
    ['Noto Sans Arabic', 'محمد عبد الله', 'bold'],
    ['Noto Sans SC', '王小明山田太郎やまだ', 'bold'],
  ] as const)('%s: each glyph as in the whole font, renumbered from 1', async (_, text, weight) => {
    const face = await faceOf(text, weight);
    const whole = parse(face.tables.bytes);
    const ids = [...new Set([...text].map((char) => whole.glyphForCodePoint(char.codePointAt(0) ?? 0).id))];
    expect(ids).not.toContain(0);
    const bytes = subsetTrueType(face.tables, ids);
    const subset = parse(bytes);
    // Glyph 0 and the glyphs asked for, then the components of composite ones.
    expect(subset.numGlyphs).toBeGreaterThanOrEqual(ids.length + 1);
    ids.forEach((id, index) => {
      const original = whole.getGlyph(id);
      const copy = subset.getGlyph(index + 1);
      expect(copy.path.toSVG(), `glyph ${id}`).toBe(original.path.toSVG());
      expect(copy.advanceWidth, `glyph ${id}`).toBe(original.advanceWidth);
    });
    expect(wholeSum(bytes)).toBe(0xb1b0afba);
    // Kilobytes, where the whole font is hundreds of them (SC: ten megabytes).
    expect(bytes.length).toBeLessThan(face.tables.bytes.length / 50);
  });

  it('can hold one glyph twice, each at its own place, for two characters that share it', async () => {
    const face = await faceOf('Ada', 'regular');
    const whole = parse(face.tables.bytes);
    const a = whole.glyphForCodePoint(0x41).id;
    const subset = parse(subsetTrueType(face.tables, [a, a]));
    expect(subset.getGlyph(2).path.toSVG()).toBe(subset.getGlyph(1).path.toSVG());
    expect(subset.getGlyph(1).path.toSVG()).toBe(whole.getGlyph(a).path.toSVG());
  });
});
