// bench/sign-engine: the signing engine alone (server/signing), which is most of "from Confirm to signed
// version ready" (issue budget 1.5 s for a 20-page PDF). Ten rounds on a 20-page PDF: the first signature
// (normalising rewrite + stamp + CMS) and a second signer's incremental update on its output, with the CA
// and both signers' certificates already made (a person's first signature ever also pays an RSA key: it is
// timed once, separately). Run alone with `node --import tsx bench/sign-engine.ts`; register it in
// bench/run.ts to include it in `npm run bench`.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLocalSigner } from '../server/signing/local-signer.ts';
import type { SignatureRequest } from '../server/signing/signer.ts';
import { openStandalonePki, type StandalonePki } from '../tests/api/deployment-pki-support.ts';
import { makePdf } from '../tests/fixtures/pdfs.ts';
import { ms, round, type Bench, type BenchResult } from './report.ts';

const ROUNDS = 10;
const PAGES = 20;
const BUDGET_MS = 1500;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

function request(pdf: Uint8Array, userId: string, signatureIndex: number): SignatureRequest {
  return {
    pdf,
    signer: { userId, fullName: `Bench Signer ${userId}`, email: `${userId}@paraph.test` },
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'Brussels',
    reason: 'Benchmark',
    signedAt: new Date(),
    placement: { kind: 'inline', pageNumber: 1 + signatureIndex, top: 0.4, left: 0.1 },
    signatureIndex,
  };
}

async function run(): Promise<BenchResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-bench-sign-'));
  let standalone: StandalonePki | null = null;
  try {
    let startedAt = performance.now();
    standalone = await openStandalonePki(dataDir);
    const signer = createLocalSigner({ pki: standalone.pki });
    const caMs = performance.now() - startedAt;
    const pdf = await makePdf({ pages: PAGES });

    startedAt = performance.now();
    const warm = await signer.sign(request(pdf, 'first', 0));
    const newSignerMs = performance.now() - startedAt;
    await signer.sign(request(warm.pdf, 'second', 1));

    const first: number[] = [];
    const second: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      startedAt = performance.now();
      const one = await signer.sign(request(pdf, 'first', 0));
      first.push(performance.now() - startedAt);
      startedAt = performance.now();
      await signer.sign(request(one.pdf, 'second', 1));
      second.push(performance.now() - startedAt);
    }
    const firstMedian = median(first);
    const secondMedian = median(second);
    return {
      name: 'sign-engine',
      title: `signing engine, ${PAGES}-page PDF, median of ${ROUNDS}`,
      tables: [
        {
          title: 'Signature time (engine only)',
          columns: ['step', 'median', 'max', 'budget share'],
          rows: [
            [
              'first signature',
              ms(firstMedian),
              ms(Math.max(...first)),
              `${round((firstMedian / BUDGET_MS) * 100, 0)} %`,
            ],
            [
              'second signature',
              ms(secondMedian),
              ms(Math.max(...second)),
              `${round((secondMedian / BUDGET_MS) * 100, 0)} %`,
            ],
            ['CA creation (once per data folder)', ms(caMs), '', ''],
            ['first signature of a new signer (RSA key)', ms(newSignerMs), '', ''],
          ],
        },
      ],
      metrics: {
        firstSignatureMs: round(firstMedian),
        secondSignatureMs: round(secondMedian),
        caMs: round(caMs),
      },
      notes: [
        `budget: from Confirm to signed version ready <= ${BUDGET_MS} ms, of which this is the engine's part`,
      ],
      problems: [],
    };
  } finally {
    await standalone?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const signEngineBench: Bench = { name: 'sign-engine', title: 'signing engine', run };

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  for (const table of result.tables) {
    console.log(table.title);
    for (const row of table.rows) console.log(`  ${row.join('  ')}`);
  }
}
