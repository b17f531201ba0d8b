// bench/list-paging: from a click on the list's 'Next page' / 'Previous page' to the new rows painted, in
// Chromium against the real server (a child process), 20 clicks alternating next and previous. The
// reference in the same run is a plain fetch of the same API page from the same page: the ratio says what
// the app adds (machine, React, layout, paint) over the request it cannot avoid.
import { makePdf } from '../tests/fixtures/pdfs.ts';
import { DEMO_ACCOUNTS } from '../server/seed.ts';
import {
  STEP_TIMEOUT_MS,
  ensureBuilt,
  launchChromium,
  newBenchContext,
  percentile,
  signInForApi,
  signInInBrowser,
  uploadDocument,
  waitForImageJobs,
} from './browser.ts';
import { ms, ratio, round, type Bench, type BenchResult } from './report.ts';
import { makeDataDir, startServer } from './server-process.ts';

const EXTRA_DOCUMENTS = 60;
const UPLOAD_CONCURRENCY = 6;
const CLICKS = 20;
const IMAGE_JOBS_TIMEOUT_MS = 90_000;
// The list's own path for the first category; its page requests are what the reference fetches.
const LIST_REQUEST = /\/api\/documents\/active(\?|$)/;

type Timing = { clickAt: number; changedAt: number; paintedAt: number; firstRow: string };

declare global {
  interface Window {
    __listBench?: { arm(before: string): void; result: Promise<Timing> | null };
  }
}

// Installed in the page: arms a click listener (capture phase, so the time is the click's, before any
// handler) and a MutationObserver on the grid; the rows count as painted when the frame that shows the
// changed first row has run (a task posted from its requestAnimationFrame runs after that paint).
function installProbe(): void {
  const firstRowText = (): string =>
    document.querySelector('[role="grid"][aria-label="Documents"] tbody tr')?.textContent ?? '';
  window.__listBench = {
    result: null,
    arm(before: string) {
      this.result = new Promise<Timing>((resolve) => {
        let clickAt = Number.NaN;
        window.addEventListener(
          'click',
          () => {
            clickAt = performance.now();
          },
          { capture: true, once: true },
        );
        const grid = document.querySelector('[role="grid"][aria-label="Documents"]');
        if (grid === null) throw new Error('no Documents grid');
        const observer = new MutationObserver(() => {
          const text = firstRowText();
          if (text === '' || text === before) return;
          observer.disconnect();
          const changedAt = performance.now();
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () =>
              resolve({ clickAt, changedAt, paintedAt: performance.now(), firstRow: text });
            channel.port2.postMessage(null);
          });
        });
        observer.observe(grid, { subtree: true, childList: true, characterData: true });
      });
    },
  };
}

async function measure(): Promise<BenchResult> {
  const notes: string[] = [];
  const problems: string[] = [];
  await ensureBuilt('list', notes);
  const email = DEMO_ACCOUNTS[0].email;
  const server = await startServer({ dataDir: await makeDataDir('list'), demo: true });
  const browser = await launchChromium().catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  try {
    const token = await signInForApi(server.origin, email);
    const seedStartedAt = performance.now();
    const numbers = Array.from({ length: EXTRA_DOCUMENTS }, (_, index) => index + 1);
    for (let start = 0; start < numbers.length; start += UPLOAD_CONCURRENCY) {
      await Promise.all(
        numbers.slice(start, start + UPLOAD_CONCURRENCY).map(async (n) => {
          const label = `Bench document ${String(n).padStart(2, '0')}`;
          await uploadDocument(server.origin, token, await makePdf({ text: label }), `${label}.pdf`);
        }),
      );
    }
    await waitForImageJobs(server.dataDir, IMAGE_JOBS_TIMEOUT_MS);
    notes.push(
      `${EXTRA_DOCUMENTS} one-page PDFs uploaded for ${email} through the API and their page images rendered in ${((performance.now() - seedStartedAt) / 1000).toFixed(1)} s, before measuring`,
    );

    const context = await newBenchContext(browser);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await signInInBrowser(page, server.origin, email);
    const grid = page.getByRole('grid', { name: 'Documents' });
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await grid.locator('tbody tr').first().waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    const pageText = (await pager.innerText()).trim();
    const total = Number(/of (\d+)/.exec(pageText)?.[1] ?? '0');
    if (total < 2) throw new Error(`the list has ${total} page(s) ("${pageText}"): nothing to page through`);
    await page.evaluate(installProbe);

    const requests: string[] = [];
    page.on('request', (request) => {
      if (LIST_REQUEST.test(request.url())) requests.push(request.url());
    });
    const clickToPaint: number[] = [];
    const clickToDom: number[] = [];
    const fetches: number[] = [];
    for (let click = 0; click < CLICKS; click += 1) {
      const name = click % 2 === 0 ? 'Next page' : 'Previous page';
      const before = (await grid.locator('tbody tr').first().textContent()) ?? '';
      requests.length = 0;
      await page.evaluate((text) => window.__listBench?.arm(text), before);
      await pager.getByRole('button', { name }).click();
      const timing = await page.evaluate(() => window.__listBench?.result ?? null);
      if (timing === null || Number.isNaN(timing.clickAt)) throw new Error(`click ${click + 1} was not seen`);
      clickToPaint.push(timing.paintedAt - timing.clickAt);
      clickToDom.push(timing.changedAt - timing.clickAt);
      // Let the list settle (request done, rows animated in) before the reference and the next click.
      await grid.and(page.locator('[aria-busy="false"]')).waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);

      const url = requests[requests.length - 1];
      if (url === undefined) throw new Error(`click ${click + 1} (${name}) sent no list request`);
      const reference = await page.evaluate(async (target) => {
        const startedAt = performance.now();
        const response = await fetch(target, {
          headers: { authorization: `Bearer ${window.localStorage.getItem('access_token') ?? ''}` },
        });
        const body = (await response.json()) as {
          data?: { attributes?: { originalFilename?: string } }[];
        };
        return {
          ms: performance.now() - startedAt,
          status: response.status,
          first: body.data?.[0]?.attributes?.originalFilename ?? null,
        };
      }, url);
      if (reference.status !== 200) throw new Error(`the reference fetch answered ${reference.status}`);
      fetches.push(reference.ms);
      // What the probe caught must be the page the server sent, not an intermediate state of the rows.
      if (reference.first === null || !timing.firstRow.includes(reference.first.replace(/\.pdf$/, ''))) {
        problems.push(
          `click ${click + 1}: the first row painted ("${timing.firstRow.slice(0, 80)}") is not the API's first document (${reference.first ?? 'none'})`,
        );
      }
    }
    await context.close();

    const median = percentile(clickToPaint, 0.5);
    const p90 = percentile(clickToPaint, 0.9);
    const domMedian = percentile(clickToDom, 0.5);
    const fetchMedian = percentile(fetches, 0.5);
    const fetchP90 = percentile(fetches, 0.9);
    notes.push(
      'paint = the frame after the first row changed (a task posted from its requestAnimationFrame); the rows then fade in over 200 ms, 60 ms apart (spec 000 §9), which is not counted',
      `the reference fetches the exact URL the click requested, with the same bearer token, from the same page, after the list settled`,
      `pages 1 and 2 of ${total}, alternating Next page / Previous page`,
    );
    return {
      name: 'list',
      title: `list paging in Chromium: ${CLICKS} clicks, click to new rows painted`,
      tables: [
        {
          title: `Click to new rows painted (${CLICKS} clicks) against a plain fetch of the same page`,
          columns: ['measure', 'median', 'p90', 'min', 'max'],
          rows: [
            [
              'click to rows painted',
              ms(median),
              ms(p90),
              ms(Math.min(...clickToPaint)),
              ms(Math.max(...clickToPaint)),
            ],
            [
              'click to first row changed (DOM)',
              ms(domMedian),
              ms(percentile(clickToDom, 0.9)),
              ms(Math.min(...clickToDom)),
              ms(Math.max(...clickToDom)),
            ],
            [
              'fetch of the same API page (reference)',
              ms(fetchMedian),
              ms(fetchP90),
              ms(Math.min(...fetches)),
              ms(Math.max(...fetches)),
            ],
            ['painted / fetch', ratio(median / fetchMedian), ratio(p90 / fetchP90), '', ''],
          ],
        },
      ],
      metrics: {
        clicks: CLICKS,
        documentsAdded: EXTRA_DOCUMENTS,
        listPages: total,
        clickToPaintMedianMs: round(median, 1),
        clickToPaintP90Ms: round(p90, 1),
        clickToDomMedianMs: round(domMedian, 1),
        fetchMedianMs: round(fetchMedian, 1),
        fetchP90Ms: round(fetchP90, 1),
        paintOverFetch: round(median / fetchMedian, 2),
      },
      notes,
      problems,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

export const listPagingBench: Bench = {
  name: 'list',
  title: 'click on next / previous page to the new rows painted',
  run: measure,
};
