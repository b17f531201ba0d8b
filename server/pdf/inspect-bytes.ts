// Decides whether uploaded bytes may become a document: a PDF by its header and its parse, not encrypted.
// Runs inside the PDF sandbox (sandbox-child.ts): pdf-lib inflates object streams while it loads.
import { PDFDocument } from 'pdf-lib';

export type PdfInspection =
  | { ok: true; pageCount: number }
  | { ok: false; code: 'not_a_pdf' | 'encrypted_pdf' | 'empty_file' | 'too_many_pages' };

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
    // pdf-lib is compiled to ES5, where its EncryptedPDFError is not an `instanceof` match: loading with
    // ignoreEncryption and asking isEncrypted is the reliable form of the same check.
    const doc = await PDFDocument.load(buf, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
    if (doc.isEncrypted) return { ok: false, code: 'encrypted_pdf' };
    const pageCount = doc.getPageCount();
    if (pageCount < 1) return { ok: false, code: 'not_a_pdf' };
    return { ok: true, pageCount };
  } catch {
    // Encryption can hide the structure from the parser (encrypted object streams); the /Encrypt key
    // itself is never encrypted, so it still tells the user the more useful reason.
    const hasEncryptKey = Buffer.from(buf.buffer, buf.byteOffset, buf.length).indexOf(ENCRYPT_KEY) !== -1;
    return { ok: false, code: hasEncryptKey ? 'encrypted_pdf' : 'not_a_pdf' };
  }
}
