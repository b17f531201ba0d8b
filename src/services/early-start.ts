// What src/app/early-start-script.js started before the bundle arrived (a document link opened cold): each
// piece is handed over at most once, so a later read, a retry or another document asks afresh.
type EarlyStart = NonNullable<Window['__paraphEarly']>;

function early(): EarlyStart | null {
  return typeof window === 'undefined' ? null : (window.__paraphEarly ?? null);
}

function take<K extends Exclude<keyof EarlyStart, 'documentId'>>(key: K): EarlyStart[K] | null {
  const started = early();
  if (!started) return null;
  const value = started[key];
  started[key] = null;
  return value;
}

/** The profile's answer, if the early start asked for it and nobody took it yet. */
export function takeEarlyProfile(): Promise<Response> | null {
  return take('profile');
}

/** The document's answer, if the early start asked for this very document and nobody took it yet. */
export function takeEarlyDocument(documentId: string): Promise<Response> | null {
  return early()?.documentId === documentId ? take('document') : null;
}

/** The smart cards' answer, if the early start asked for them (a sign link) and nobody took it yet. */
export function takeEarlySmartCards(): Promise<Response> | null {
  return take('smartCards');
}

/**
 * The sign flow's answer for this very document, if the early start asked for it; the promise gives null
 * when it did not ask after all (not a sign flow, or the document's read failed).
 */
export function takeEarlySignFlow(documentId: string): Promise<Response | null> | null {
  return early()?.documentId === documentId ? take('signFlow') : null;
}

/** pdfjs's worker, if the early start booted it. */
export function takeEarlyPdfWorker(): Worker | null {
  return take('pdfWorker');
}

/**
 * The bytes of the PDF at `url`, if the early start fetched that very file and nobody took it yet; null
 * when it did not, or when its fetch failed (the viewer then asks for the file itself).
 */
export async function takeEarlyPdf(url: string): Promise<Uint8Array | null> {
  if (early()?.pdf?.url !== url) return null;
  const started = take('pdf');
  if (started === null) return null;
  try {
    return new Uint8Array(await started.bytes);
  } catch {
    return null;
  }
}
