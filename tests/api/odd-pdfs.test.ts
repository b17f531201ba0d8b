// Every PDF a viewer opens signs: each odd but valid structure (tests/fixtures/odd-pdfs.ts) goes through
// what the app does with an upload (the upload check, inspectPdfBytes, as the sandbox runs it) and two
// signatures by the local signer (an inline stamp, then a signature page), checked by tools that share
// none of the app's code: pdfsig (every signature valid, the last covering the whole file), qpdf --check
// (no error and no warning: a file nobody signed is rewritten clean, a signed one must be sound) and
// pdfinfo (the pages readers show). A file that cannot be signed validly is refused, with its reason, at
// upload and at signing, never signed into an invalid file.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectPdfBytes } from '../../server/pdf/inspect-bytes.ts';
import { loadPdf } from '../../server/pdf/load.ts';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { PresignError, type SignatureRequest, type Signer } from '../../server/signing/signer.ts';
import { openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';
import {
  brokenXrefPdf,
  classicPdf,
  disposeElsewhereSigner,
  formPdf,
  freeListPdf,
  garbageObjectPdf,
  hugeNumbers,
  hugeObjectNumbersPdf,
  hybridPdf,
  incrementalPdf,
  incrementalXrefStreamsPdf,
  inheritedPageTreePdf,
  junkAroundPdf,
  linearizedObjectStreamsPdf,
  linearizedPdf,
  noIdPdf,
  objectStreamsPdf,
  phantomPagesPdf,
  signElsewhere,
  unreadablePageContentPdf,
  untypedCatalogPdf,
  untypedPageTreeNodesPdf,
  untypedPagesRootPdf,
  wrongCountPdf,
  wrongParentPdf,
  xrefStreamPdf,
} from '../fixtures/odd-pdfs.ts';
import {
  onlyValidationDataAfterLastSignature,
  parsePdfsigReport,
  type PdfsigSignature,
} from './pdf-signatures.ts';

const run = promisify(execFile);

let workDir: string;
let signer: Signer;
let pki: StandalonePki;
let fileCounter = 0;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-odd-'));
  pki = await openStandalonePki(path.join(workDir, 'data'));
  signer = createLocalSigner({ pki: pki.pki });
});

afterAll(async () => {
  await pki.close();
  await disposeElsewhereSigner();
  await rm(workDir, { recursive: true, force: true });
});

async function tempFile(bytes: Uint8Array): Promise<string> {
  fileCounter += 1;
  const file = path.join(workDir, `${fileCounter}.pdf`);
  await writeFile(file, bytes);
  return file;
}

// The tools exit non-zero on what they report (an invalid signature, a qpdf warning): the report is
// what the tests read, the exit code is part of it.
async function tool(command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function pdfsig(pdf: Uint8Array): Promise<PdfsigSignature[]> {
  return parsePdfsigReport((await tool('pdfsig', [await tempFile(pdf)])).output);
}

/** qpdf --check: 0 is clean, 3 is "succeeded with warnings", 2 is errors. */
async function qpdfCheck(pdf: Uint8Array): Promise<{ code: number; output: string }> {
  return tool('qpdf', ['--check', await tempFile(pdf)]);
}

async function pdfinfoPages(pdf: Uint8Array): Promise<number> {
  const { output } = await tool('pdfinfo', [await tempFile(pdf)]);
  return Number(/^Pages:\s+(\d+)$/m.exec(output)?.[1]);
}

const ADA = { userId: 'user-ada', fullName: 'Ada Lovelace', email: 'ada@paraph.test' };
const BOB = { userId: 'user-bob', fullName: 'Bob Martin', email: 'bob@paraph.test' };

function request(pdf: Uint8Array, overrides: Partial<SignatureRequest> = {}): SignatureRequest {
  return {
    pdf,
    signer: ADA,
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'Brussels',
    reason: 'I approve this document',
    signedAt: new Date('2025-03-04T10:20:30Z'),
    placement: { kind: 'inline', pageNumber: 1, top: 0.3, left: 0.1 },
    signatureIndex: 0,
    ...overrides,
  };
}

// The most PDF 1.7 allows: a signed file using it leaves an update no numbers above.
const AT_LIMIT = 8_388_607;

type OddClass = {
  name: string;
  make: () => Buffer | Promise<Buffer>;
  /** The pages every reader shows. */
  pages: number;
  /** Signatures it carries already (made elsewhere), which must stay valid. */
  signedBefore?: number;
};

const SIGNABLE: OddClass[] = [
  { name: 'a plain classic table (the baseline)', make: classicPdf, pages: 2 },
  { name: 'a cross-reference stream with a PNG predictor', make: xrefStreamPdf, pages: 2 },
  { name: 'object streams', make: objectStreamsPdf, pages: 2 },
  { name: 'a hybrid-reference file (/XRefStm)', make: hybridPdf, pages: 2 },
  { name: 'three revisions, the last redefining a page', make: incrementalPdf, pages: 2 },
  { name: 'incremental updates with cross-reference streams', make: incrementalXrefStreamsPdf, pages: 2 },
  { name: 'a linearized file', make: linearizedPdf, pages: 3 },
  { name: 'a linearized file with object streams', make: linearizedObjectStreamsPdf, pages: 3 },
  { name: 'text fields with appearances', make: () => formPdf({ needAppearances: false }), pages: 1 },
  { name: 'a form with /NeedAppearances true', make: () => formPdf({ needAppearances: true }), pages: 1 },
  { name: 'attributes inherited from nested Pages nodes', make: inheritedPageTreePdf, pages: 3 },
  { name: 'object numbers far apart and a stray 2147483647', make: () => hugeObjectNumbersPdf(), pages: 2 },
  { name: 'a free list and generations above 0', make: freeListPdf, pages: 2 },
  { name: 'a trailer without /ID', make: noIdPdf, pages: 2 },
  { name: 'junk before %PDF and after %%EOF', make: junkAroundPdf, pages: 2 },
  { name: 'a table whose offsets are all a few bytes off', make: brokenXrefPdf, pages: 2 },
  { name: 'an unreadable object nothing uses', make: garbageObjectPdf, pages: 2 },
  { name: 'a /Pages root without /Type', make: untypedPagesRootPdf, pages: 2 },
  { name: 'Pages nodes and pages without /Type', make: untypedPageTreeNodesPdf, pages: 3 },
  { name: '/Parent entries pointing at the catalog', make: wrongParentPdf, pages: 2 },
  { name: 'a catalog without /Type', make: untypedCatalogPdf, pages: 2 },
  {
    name: 'signed elsewhere (a table update)',
    make: () => signElsewhere({ base: classicPdf(), xref: 'table' }),
    pages: 2,
    signedBefore: 1,
  },
  {
    name: 'signed elsewhere (a cross-reference stream update)',
    make: () => signElsewhere({ base: xrefStreamPdf(), xref: 'stream' }),
    pages: 2,
    signedBefore: 1,
  },
  {
    name: 'signed elsewhere twice, over cross-reference streams',
    make: async () =>
      signElsewhere({
        base: await signElsewhere({ base: xrefStreamPdf(), xref: 'stream' }),
        xref: 'stream',
        newNumbers: { signature: 30, field: 31, xrefStream: 32 },
        earlierFields: [21],
      }),
    pages: 2,
    signedBefore: 2,
  },
  {
    name: 'signed elsewhere over a hybrid file',
    make: () => signElsewhere({ base: hybridPdf(), xref: 'table' }),
    pages: 2,
    signedBefore: 1,
  },
  {
    name: 'signed elsewhere with object numbers at the limit',
    make: () =>
      signElsewhere({ base: hugeObjectNumbersPdf(AT_LIMIT), numbers: hugeNumbers(AT_LIMIT), xref: 'table' }),
    pages: 2,
    signedBefore: 1,
  },
];

// poppler makes room for every object number below the highest: a file at the limit takes it seconds.
const SLOW_TOOLS_MS = 120_000;

describe('every odd but valid PDF signs', () => {
  it.each(SIGNABLE)(
    '$name',
    async ({ make, pages, signedBefore = 0 }) => {
      const original = await make();
      // The fixture is what it claims: poppler shows its pages, and its earlier signatures verify.
      expect(await pdfinfoPages(original)).toBe(pages);
      expect((await pdfsig(original)).map((signature) => signature.isValid)).toEqual(
        Array<boolean>(signedBefore).fill(true),
      );

      expect(await inspectPdfBytes(original)).toEqual({ ok: true, pageCount: pages });

      const first = await signer.sign(request(original));
      const second = await signer.sign(
        request(first.pdf, {
          signer: BOB,
          placement: { kind: 'page', signPageNumber: 0 },
          signatureIndex: 1,
        }),
      );

      // A signed file is never rewritten: its bytes start the next one.
      if (signedBefore > 0) {
        expect(Buffer.from(first.pdf).subarray(0, original.length).equals(original)).toBe(true);
      }
      expect(Buffer.from(second.pdf).subarray(0, first.pdf.length).equals(Buffer.from(first.pdf))).toBe(true);

      for (const [pdf, count] of [
        [first.pdf, signedBefore + 1],
        [second.pdf, signedBefore + 2],
      ] as const) {
        const signatures = await pdfsig(pdf);
        expect(signatures.map((signature) => signature.isValid)).toEqual(Array<boolean>(count).fill(true));
        // After the last signature comes only its validation data (the DSS), never content.
        expect(onlyValidationDataAfterLastSignature(pdf)).toBe(true);
        const check = await qpdfCheck(pdf);
        expect(check.output).not.toContain('WARNING');
        expect(check.code).toBe(0);
      }
      expect(await pdfinfoPages(first.pdf)).toBe(pages);
      expect(await pdfinfoPages(second.pdf)).toBe(pages + 1);
    },
    SLOW_TOOLS_MS,
  );
});

describe('a PDF that cannot be signed validly is refused, with its reason', () => {
  it.each([
    {
      name: 'a /Count that is not the number of pages',
      make: wrongCountPdf,
      reason: 'its page count does not match its pages',
    },
    {
      // poppler refuses this one outright; pdf.js, the app's own viewer, offers 100000 pages.
      name: 'a page tree whose counts claim 100000 pages',
      make: phantomPagesPdf,
      reason: 'its page count does not match its pages',
      opensInPoppler: false,
    },
    {
      name: 'a page whose content cannot be read',
      make: unreadablePageContentPdf,
      reason: 'the content of page 2 is missing or unreadable',
    },
    {
      name: 'a signed file whose earlier table is damaged',
      make: () => signElsewhere({ base: brokenXrefPdf(), xref: 'table' }),
      reason: 'it is already signed and its structure is damaged',
    },
  ])('$name', async ({ make, reason, opensInPoppler = true }) => {
    const pdf = await make();
    // Readers open it: the refusal is about signing it, not about reading it.
    if (opensInPoppler) expect(await pdfinfoPages(pdf)).toBeGreaterThan(0);

    const inspection = await inspectPdfBytes(pdf);
    expect(inspection).toMatchObject({ ok: false, code: 'not_a_pdf' });
    expect(inspection.ok ? '' : inspection.damage).toContain(reason);

    const copy = Buffer.from(pdf);
    const signing = signer.sign(request(pdf));
    await expect(signing).rejects.toBeInstanceOf(PresignError);
    await expect(signing).rejects.toThrow(`The PDF is damaged: ${reason}`);
    expect(Buffer.from(pdf).equals(copy)).toBe(true);
  });
});

describe('how a file is read', () => {
  it('follows the cross-reference chain: a stray object no section lists is not part of the document', async () => {
    const { doc, chain, damage } = await loadPdf(hugeObjectNumbersPdf());
    expect(damage).toBeNull();
    expect(chain?.size).toBe(1_000_001);
    const numbers = doc.context.enumerateIndirectObjects().map(([ref]) => ref.objectNumber);
    expect(numbers).toContain(1_000_000);
    expect(numbers).not.toContain(2_147_483_647);
  });

  it('takes the newest generation of a reused number, and nothing freed', async () => {
    const { doc, damage } = await loadPdf(freeListPdf());
    expect(damage).toBeNull();
    const tags = doc.context.enumerateIndirectObjects().map(([ref]) => ref.tag);
    expect(tags).toEqual(expect.arrayContaining(['6 2 R', '7 1 R']));
    expect(tags).not.toContain('7 0 R');
    expect(tags).not.toContain('10 0 R');
  });

  it('counts offsets from the header when junk was put before it, as readers do', async () => {
    const { chain, damage } = await loadPdf(junkAroundPdf());
    expect(damage).toBeNull();
    expect(chain?.shift).toBe(junkAroundPdf().indexOf('%PDF-'));
  });

  it('rebuilds a file whose table points beside its objects, and says why', async () => {
    const { doc, chain, damage } = await loadPdf(brokenXrefPdf());
    expect(chain).toBeNull();
    expect(damage).toMatch(/cross-reference|not at offset/);
    expect(doc.getPageCount()).toBe(2);
  });

  it('rewrites a file before its first signature with its objects numbered from 1, nothing stray kept', async () => {
    const { pdf } = await signer.sign(request(hugeObjectNumbersPdf()));
    const text = Buffer.from(pdf).toString('latin1');
    expect(text).not.toContain('2147483647 0 obj');
    const objectNumbers = [...text.matchAll(/^(\d+) \d+ obj$/gm)].map((match) => Number(match[1]));
    expect(Math.max(...objectNumbers)).toBeLessThan(100);
  });

  it('appends a cross-reference stream after a file whose last section is one', async () => {
    const original = await signElsewhere({ base: xrefStreamPdf(), xref: 'stream' });
    const { pdf } = await signer.sign(request(original));
    const update = Buffer.from(pdf).subarray(original.length).toString('latin1');
    expect(update).toContain('/Type /XRef');
    expect(update).not.toMatch(/^xref$/m);
  });

  it('numbers the new objects of a signed file below the limit, in numbers no section lists', async () => {
    const original = await signElsewhere({
      base: hugeObjectNumbersPdf(AT_LIMIT),
      numbers: hugeNumbers(AT_LIMIT),
      xref: 'table',
    });
    const { pdf } = await signer.sign(request(original));
    const update = Buffer.from(pdf).subarray(original.length).toString('latin1');
    const numbers = [...update.matchAll(/^(\d+) \d+ obj$/gm)].map((match) => Number(match[1]));
    expect(numbers.length).toBeGreaterThan(3);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(AT_LIMIT);
    // The catalog and page 1 change; every other object is new, at a number nothing used.
    const used = [20, 21, ...Object.values(hugeNumbers(AT_LIMIT))];
    const reused = numbers.filter((num) => used.includes(num));
    expect([...new Set(reused)].sort((a, b) => a - b)).toEqual([1, 3]);
  });
});
