// Decides whether uploaded bytes may become a document: a PDF by its header and its parse, not encrypted,
// and one the signer can sign (load.ts: read as viewers read it, its page tree and the objects it uses
// sound; a damaged structure is fine while nobody signed it, since the first signature rewrites it).
// Runs inside the PDF sandbox (sandbox-child.ts): pdf-lib inflates object streams while it loads.
import { EncryptedPdfError, loadPdf, whyNotSignable } from './load.ts';

export type PdfInspection =
  | { ok: true; pageCount: number }
  | {
      ok: false;
      code: 'not_a_pdf' | 'encrypted_pdf' | 'empty_file' | 'too_many_pages';
      /** Why a PDF that opens is refused (damaged beyond what a rewrite repairs). */
      damage?: string;
    };

// Readers accept junk before the header (ISO 32000-1 §7.5.2 implementation note); 1024 bytes is the
// usual tolerance.
const HEADER_WINDOW = 1024;
const HEADER = Buffer.from('%PDF-', 'latin1');
const ENCRYPT_KEY = Buffer.from('/Encrypt', 'latin1');

export async function inspectPdfBytes(buf: Uint8Array): Promise<PdfInspection> {
  if (buf.length === 0) return { ok: false, code: 'empty_file' };
  if (Buffer.from(buf.buffer, buf.byteOffset, Math.min(buf.length, HEADER_WINDOW)).indexOf(HEADER) === -1) {
    return { ok: false, code: 'not_a_pdf' };
  }
  try {
    const loaded = await loadPdf(buf);
    // First: pdf-lib would walk a looping page tree until its stack ran out.
    const damage = whyNotSignable(loaded);
    if (damage !== null) return { ok: false, code: 'not_a_pdf', damage };
    return { ok: true, pageCount: loaded.doc.getPageCount() };
  } catch (error) {
    if (error instanceof EncryptedPdfError) return { ok: false, code: 'encrypted_pdf' };
    // Encryption can hide the structure from the parser (encrypted object streams); the /Encrypt key
    // itself is never encrypted, so it still tells the user the more useful reason.
    const hasEncryptKey = Buffer.from(buf.buffer, buf.byteOffset, buf.length).indexOf(ENCRYPT_KEY) !== -1;
    return { ok: false, code: hasEncryptKey ? 'encrypted_pdf' : 'not_a_pdf' };
  }
}
