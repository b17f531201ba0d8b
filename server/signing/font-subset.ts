// A TrueType subset for embedding in a PDF: the glyphs a document draws (and the glyphs their composite
// glyphs are built from), renumbered from 1 in the order given, glyph 0 (.notdef) first. It keeps the
// tables ISO 32000-1 §9.9 asks of an embedded TrueType font (head, hhea, maxp, hmtx, loca, glyf, and cvt,
// fpgm, prep when the font has them); a CID font needs no cmap, the PDF maps CIDs to glyphs itself.
//
// fontkit has a subsetter, but it writes a short loca whenever the glyphs fit in 128 KB, and a short loca
// can only point at even offsets: the glyphs of Noto Sans, whose lengths are often odd, came out garbled
// in every reader. This one pads each glyph to four bytes and writes a long loca.

export type TrueTypeTables = {
  bytes: Uint8Array;
  tables: Map<string, { offset: number; length: number }>;
};

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The table directory of a TrueType font (not a collection). */
export function readTables(bytes: Uint8Array): TrueTypeTables {
  const data = view(bytes);
  const count = data.getUint16(4);
  const tables = new Map<string, { offset: number; length: number }>();
  for (let index = 0; index < count; index += 1) {
    const record = 12 + index * 16;
    const tag = String.fromCharCode(...bytes.subarray(record, record + 4));
    tables.set(tag, { offset: data.getUint32(record + 8), length: data.getUint32(record + 12) });
  }
  return { bytes, tables };
}

function table(font: TrueTypeTables, tag: string): Uint8Array | null {
  const entry = font.tables.get(tag);
  return entry === undefined ? null : font.bytes.subarray(entry.offset, entry.offset + entry.length);
}

function required(font: TrueTypeTables, tag: string): Uint8Array {
  const found = table(font, tag);
  if (found === null) throw new Error(`The font has no ${tag} table.`);
  return found;
}

// Composite glyph flags (the OpenType glyf table).
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

/** Where each component's glyph index sits in a composite glyph, and which glyph it names. */
function components(glyph: Uint8Array): { at: number; glyphId: number }[] {
  if (glyph.length < 10) return [];
  const data = view(glyph);
  if (data.getInt16(0) >= 0) return [];
  const found: { at: number; glyphId: number }[] = [];
  let at = 10;
  for (;;) {
    const flags = data.getUint16(at);
    found.push({ at: at + 2, glyphId: data.getUint16(at + 2) });
    at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
    if (flags & WE_HAVE_A_SCALE) at += 2;
    else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
    else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
    if (!(flags & MORE_COMPONENTS)) return found;
  }
}

function checksum(bytes: Uint8Array): number {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const data = view(padded);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + data.getUint32(at)) >>> 0;
  return sum;
}

/**
 * Writes the subset: `glyphIds[i]` of the font becomes glyph i + 1 (a glyph may come twice, when two
 * characters share it and each needs its own CID for the text to copy right); the components of
 * composite glyphs are added after them.
 */
export function subsetTrueType(font: TrueTypeTables, glyphIds: readonly number[]): Uint8Array {
  const head = required(font, 'head');
  const hhea = required(font, 'hhea');
  const maxp = required(font, 'maxp');
  const hmtx = required(font, 'hmtx');
  const loca = required(font, 'loca');
  const glyf = required(font, 'glyf');
  const longLoca = view(head).getInt16(50) === 1;
  const numGlyphs = view(maxp).getUint16(4);
  const metricsCount = view(hhea).getUint16(34);
  const locaData = view(loca);
  const glyphData = (id: number): Uint8Array => {
    if (id >= numGlyphs) return new Uint8Array(0);
    const start = longLoca ? locaData.getUint32(id * 4) : locaData.getUint16(id * 2) * 2;
    const end = longLoca ? locaData.getUint32(id * 4 + 4) : locaData.getUint16(id * 2 + 2) * 2;
    return glyf.subarray(start, Math.max(start, end));
  };
  const metrics = (id: number): { advance: number; bearing: number } => {
    const data = view(hmtx);
    const last = Math.max(0, metricsCount - 1);
    const advance = data.getUint16(Math.min(id, last) * 4);
    const bearing =
      id < metricsCount
        ? data.getInt16(id * 4 + 2)
        : data.getInt16(metricsCount * 4 + (id - metricsCount) * 2);
    return { advance, bearing };
  };

  const order: number[] = [0, ...glyphIds];
  const newIds = new Map<number, number>();
  order.forEach((id, index) => {
    if (!newIds.has(id)) newIds.set(id, index);
  });
  const include = (id: number) => {
    if (!newIds.has(id)) {
      newIds.set(id, order.length);
      order.push(id);
    }
  };
  // Components may have components: the list grows while it is walked.
  for (let index = 0; index < order.length; index += 1) {
    for (const component of components(glyphData(order[index] ?? 0))) include(component.glyphId);
  }

  const glyphs = order.map((id) => {
    const source = glyphData(id);
    const copy = new Uint8Array(Math.ceil(source.length / 4) * 4);
    copy.set(source);
    for (const component of components(source)) {
      view(copy).setUint16(component.at, newIds.get(component.glyphId) ?? 0);
    }
    return copy;
  });
  const newLoca = new Uint8Array((order.length + 1) * 4);
  let offset = 0;
  glyphs.forEach((glyph, index) => {
    view(newLoca).setUint32(index * 4, offset);
    offset += glyph.length;
  });
  view(newLoca).setUint32(order.length * 4, offset);
  const newGlyf = new Uint8Array(offset);
  offset = 0;
  for (const glyph of glyphs) {
    newGlyf.set(glyph, offset);
    offset += glyph.length;
  }
  const newHmtx = new Uint8Array(order.length * 4);
  order.forEach((id, index) => {
    const { advance, bearing } = metrics(id);
    view(newHmtx).setUint16(index * 4, advance);
    view(newHmtx).setInt16(index * 4 + 2, bearing);
  });
  const newHead = head.slice();
  view(newHead).setUint32(8, 0);
  view(newHead).setInt16(50, 1);
  const newHhea = hhea.slice();
  view(newHhea).setUint16(34, order.length);
  const newMaxp = maxp.slice();
  view(newMaxp).setUint16(4, order.length);

  const tables = new Map<string, Uint8Array>([
    ['glyf', newGlyf],
    ['head', newHead],
    ['hhea', newHhea],
    ['hmtx', newHmtx],
    ['loca', newLoca],
    ['maxp', newMaxp],
  ]);
  for (const tag of ['cvt ', 'fpgm', 'prep']) {
    const found = table(font, tag);
    if (found !== null) tables.set(tag, found);
  }
  const bytes = writeFont(tables);
  // head's checkSumAdjustment makes the whole file sum to this constant.
  const headEntry = [...tables.keys()].sort().indexOf('head');
  const headOffset = view(bytes).getUint32(12 + headEntry * 16 + 8);
  view(bytes).setUint32(headOffset + 8, (0xb1b0afba - checksum(bytes)) >>> 0);
  return bytes;
}

function writeFont(tables: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tables.keys()].sort();
  const headerLength = 12 + tags.length * 16;
  let length = headerLength;
  for (const tag of tags) length += Math.ceil((tables.get(tag)?.length ?? 0) / 4) * 4;
  const bytes = new Uint8Array(length);
  const data = view(bytes);
  const power = 2 ** Math.floor(Math.log2(tags.length));
  data.setUint32(0, 0x00010000);
  data.setUint16(4, tags.length);
  data.setUint16(6, power * 16);
  data.setUint16(8, Math.log2(power));
  data.setUint16(10, tags.length * 16 - power * 16);
  let offset = headerLength;
  tags.forEach((tag, index) => {
    const content = tables.get(tag) ?? new Uint8Array(0);
    const record = 12 + index * 16;
    for (let char = 0; char < 4; char += 1) bytes[record + char] = tag.charCodeAt(char);
    data.setUint32(record + 4, checksum(content));
    data.setUint32(record + 8, offset);
    data.setUint32(record + 12, content.length);
    bytes.set(content, offset);
    offset += Math.ceil(content.length / 4) * 4;
  });
  return bytes;
}
