// The upload machine's transition-covering paths (`npm run paths -- upload --json`), replayed in Chromium
// against the real app and server: a chosen or dropped file for file.selected, the modal's buttons for
// retry and cancel, and the three requests (upload request, storage POST, POST /api/documents) held until
// the path says how each ends. Each state is checked in the modal, and an ending in the list behind it.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { LIST_REFRESH_MS, MODAL_CLOSE_MS } from '../../../machines/upload.machine.ts';
import { makePdf } from '../../fixtures/pdfs.ts';
import { signIn } from '../support.ts';
import {
  actorOutcome,
  coveredTransitions,
  delayOf,
  HeldRequests,
  loadPaths,
  pathTitle,
  replay,
  type Adapter,
  type ModelPath,
  type PathEvent,
  type PathStep,
} from './replay.ts';
import { startPrivateServerForFile } from './private-server.ts';

const UPLOAD = loadPaths('upload');
const ACCOUNT = 'carol@paraph.test';
// 2 MB at 256 KB/s: eight seconds of progress, far longer than the replay needs to see the bar move.
const SLOW_UPLOAD_BYTES_PER_SECOND = 256 * 1024;
const LARGE_PADDING_BYTES = 2 * 1024 * 1024;

type PathFile = { name: string; type: string; size: number };

// The English catalog's words for each error the paths reach (src/i18n/en.json, documents.upload.*).
// A refusal of the file names it and says what to do.
const MESSAGES: Record<string, string | RegExp> = {
  not_pdf: /^.+ is not a PDF file\. Save it as a PDF, then upload the PDF\.$/,
  one_file_only: 'Upload one file at a time.',
  network: 'The connection was lost. Check your network and try again.',
  not_a_pdf: /^.+ is not a valid PDF, or it is damaged\. /,
  empty_file: /^.+ is empty \(0 bytes\)\. /,
  storage: 'The document could not be uploaded. Please try again.',
  file_too_large: /^.+ is larger than .+\. Compress it or split it into smaller PDFs, then upload those\.$/,
};

// The refusals of the file itself, whose retry button offers another file (machines/upload.machine.ts).
const FILE_REFUSED = new Set(['file_too_large', 'empty_file', 'not_a_pdf', 'encrypted_pdf', 'too_many_pages']);

function messageOf(code: string | null): string | RegExp {
  const message = code === null ? undefined : MESSAGES[code];
  if (!message) throw new Error(`the replay expects no error here, but the path reached one (${code})`);
  return message;
}

function filesOf(event: PathEvent): PathFile[] {
  const files = event.files;
  if (!Array.isArray(files)) throw new Error(`${event.type} without files`);
  return files.map((file: { name?: unknown; type?: unknown; size?: unknown }) => ({
    name: String(file.name),
    type: String(file.type),
    size: Number(file.size),
  }));
}

function laterStep(modelPath: ModelPath, index: number): PathStep | undefined {
  return modelPath.steps[index + 1];
}

/** One path's run: the page, its held requests, and what the path has made the modal show so far. */
class UploadAdapter implements Adapter {
  private readonly page: Page;
  private readonly tag: string;
  private readonly pdf: Buffer;
  private readonly brokenPdf: Buffer;
  private readonly held = new HeldRequests();
  private fileName = '';
  private fileSize = 0;
  private errorCode: string | null = null;
  /** How many times the path has entered each request's state: each entry makes one request. */
  private readonly seen = { requestUpload: 0, sendToStorage: 0, createDocument: 0 };
  private isStorageReleased = false;
  /**
   * How far the page's paused clock has been run since the upload finished. The finished modal closes
   * itself after a few seconds; on a busy machine real time could close it before it is seen, so its
   * timers run only when the path says they run out.
   */
  private finishedFor: number | null = null;

  constructor(page: Page, tag: string, pdf: Buffer, brokenPdf: Buffer) {
    this.page = page;
    this.tag = tag;
    this.pdf = pdf;
    this.brokenPdf = brokenPdf;
  }

  private get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Upload a document' });
  }

  private get listBehind(): Locator {
    return this.page.getByRole('grid', { name: 'Documents', includeHidden: true });
  }

  async open(): Promise<void> {
    await this.held.hold(
      this.page,
      'requestUpload',
      (url, request) => request.method() === 'POST' && url.pathname === '/api/upload_requests',
    );
    await this.held.hold(
      this.page,
      'sendToStorage',
      (url, request) => request.method() === 'POST' && url.pathname.startsWith('/storage/'),
    );
    await this.held.hold(
      this.page,
      'createDocument',
      (url, request) => request.method() === 'POST' && url.pathname === '/api/documents',
    );
    await this.page.clock.install();
    await this.page.goto('/app/documents');
    await expect(this.page.getByRole('grid', { name: 'Documents' })).toBeVisible();
    await this.page.getByRole('button', { name: 'Upload' }).first().click();
    await expect(this.dialog).toBeVisible();
  }

  // Names carry the path's tag, so what one path uploads is told apart in the list from another's.
  private named(file: PathFile): string {
    return `${this.tag} ${file.name}`;
  }

  private async choose(files: PathFile[], modelPath: ModelPath): Promise<void> {
    // The server itself refuses the file when the path says it does: a file that only claims to be a PDF.
    const refusedByServer = modelPath.steps.some(
      (step) =>
        step.event.type === 'xstate.error.actor.createDocument' &&
        (step.event.error as { code?: string } | undefined)?.code === 'not_a_pdf',
    );
    // A path that watches progress needs a file that takes a while to send.
    const isLarge = modelPath.steps.some((step) => step.event.type === 'upload.progress');
    const pdf = isLarge ? Buffer.concat([this.pdf, Buffer.alloc(LARGE_PADDING_BYTES, 0x0a)]) : this.pdf;
    const payloads = files.map((file) => ({
      name: this.named(file),
      mimeType: file.type,
      buffer:
        file.type !== 'application/pdf'
          ? Buffer.from('Notes, not a PDF.\n')
          : file.size === 0
            ? Buffer.alloc(0)
            : refusedByServer
              ? this.brokenPdf
              : pdf,
    }));
    const first = payloads[0];
    if (payloads.length === 1 && first) {
      await this.dialog.locator('input[type=file]').setInputFiles(first);
      this.fileName = first.name;
      this.fileSize = first.buffer.length;
    } else {
      // Several files at once only come by drag and drop: the file input takes one.
      const transfer = await this.page.evaluateHandle(
        (items) => {
          const data = new DataTransfer();
          for (const item of items) data.items.add(new File([item.text], item.name, { type: item.mimeType }));
          return data;
        },
        payloads.map((payload) => ({
          name: payload.name,
          mimeType: payload.mimeType,
          text: payload.buffer.toString('latin1'),
        })),
      );
      await this.dialog
        .getByRole('group', { name: 'Drag a PDF here or choose one' })
        .dispatchEvent('drop', { dataTransfer: transfer });
    }
    if (payloads.length > 1) this.errorCode = 'one_file_only';
    else if (first?.mimeType !== 'application/pdf') this.errorCode = 'not_pdf';
    else if (first.buffer.length === 0) this.errorCode = 'empty_file';
    else this.errorCode = null;
  }

  async act(step: PathStep, index: number, modelPath: ModelPath): Promise<void> {
    const { event } = step;
    const outcome = actorOutcome(event);
    if (event.type === 'xstate.init') return;
    if (event.type === 'file.selected') return this.choose(filesOf(event), modelPath);
    if (event.type === 'upload.retry') {
      const name = FILE_REFUSED.has(this.errorCode ?? '') ? 'Choose another file' : 'Try again';
      await this.dialog.getByRole('button', { name }).click();
      this.errorCode = null;
      return;
    }
    if (event.type === 'upload.cancel') {
      await this.dialog.getByRole('button', { name: 'Cancel' }).click();
      return;
    }
    if (event.type === 'upload.stored' || event.type === 'upload.failed') {
      // Only the end of a held request can be chosen; a released one ends as the store answers.
      if (this.isStorageReleased) throw new Error(`${event.type} after upload.progress: not replayable`);
    }
    if (event.type === 'upload.stored') {
      await (await this.held.next('sendToStorage')).continue();
      return;
    }
    if (event.type === 'upload.failed') {
      const code = String(event.code);
      const s3Code = code === 'file_too_large' ? 'EntityTooLarge' : 'InternalError';
      await (
        await this.held.next('sendToStorage')
      ).fulfill({
        status: code === 'file_too_large' ? 400 : 500,
        contentType: 'application/xml',
        body: `<Error><Code>${s3Code}</Code></Error>`,
      });
      this.errorCode = code;
      return;
    }
    if (event.type === 'upload.progress') {
      // A held request sends no bytes, so no progress: this one goes on to the store, slowed to a
      // phone's upload speed, and the bar moves as the browser reports the bytes sent.
      const session = await this.page.context().newCDPSession(this.page);
      await session.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: SLOW_UPLOAD_BYTES_PER_SECOND,
      });
      await (await this.held.next('sendToStorage')).continue();
      this.isStorageReleased = true;
      await expect(this.dialog.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow', '0');
      return;
    }
    if (outcome?.actor === 'requestUpload') return this.endRequestUpload(outcome.ok, event, index, modelPath);
    if (outcome?.actor === 'createDocument') {
      // The server decides: the broken file chosen for this path is refused, a real PDF is kept.
      const route = await this.held.next('createDocument');
      if (outcome.ok) await this.pauseClock();
      await route.continue();
      this.errorCode = outcome.ok ? null : String((event.error as { code?: string }).code);
      return;
    }
    if (outcome?.actor === 'sendToStorage') {
      // Made real when the upload request ended (see endRequestUpload): the store's address was unusable.
      this.errorCode = 'storage';
      return;
    }
    const delay = delayOf(event);
    if (delay === 'LIST_REFRESH' || delay === 'MODAL_CLOSE') await this.runClockTo(delay);
    if (delay === 'LIST_REFRESH') {
      await expect(
        this.listBehind.getByRole('row', { name: this.fileName, includeHidden: true }),
      ).toHaveCount(1);
      return;
    }
    if (delay === 'MODAL_CLOSE') return;
    throw new Error(`no page action for ${event.type}`);
  }

  private async pauseClock(): Promise<void> {
    // A little ahead of the page's own time, which goes on flowing until the clock is paused.
    const now = await this.page.evaluate(() => Date.now());
    await this.page.clock.pauseAt(now + 500);
    this.finishedFor = 0;
  }

  private async runClockTo(delay: 'LIST_REFRESH' | 'MODAL_CLOSE'): Promise<void> {
    if (this.finishedFor === null) throw new Error(`${delay} before the upload finished`);
    const until = delay === 'LIST_REFRESH' ? LIST_REFRESH_MS : MODAL_CLOSE_MS;
    await this.page.clock.runFor(until - this.finishedFor);
    this.finishedFor = until;
    // Once the modal has closed, the page's time flows again (its closing animation, the list).
    if (delay === 'MODAL_CLOSE') await this.page.clock.resume();
  }

  private async endRequestUpload(
    ok: boolean,
    event: PathEvent,
    index: number,
    modelPath: ModelPath,
  ): Promise<void> {
    const route = await this.held.next('requestUpload');
    if (!ok) {
      await route.abort('connectionfailed');
      this.errorCode = 'network';
      return;
    }
    const response = await route.fetch();
    const body = (await response.json()) as { data: { attributes: { maxFileSize: number; url: string } } };
    const output = event.output as { maxFileSize: number };
    // The path's ticket allows less than the chosen file: the server's ticket is given that limit.
    if (output.maxFileSize < this.fileSize) {
      body.data.attributes.maxFileSize = output.maxFileSize;
      this.errorCode = 'file_too_large';
    }
    // The store's send failing as it starts (not an answer of the store) is what an unusable address does.
    if (laterStep(modelPath, index)?.event.type === 'xstate.error.actor.sendToStorage') {
      body.data.attributes.url = 'http://[paraph';
    }
    await route.fulfill({ response, json: body });
  }

  isInstant(index: number, modelPath: ModelPath): boolean {
    return laterStep(modelPath, index)?.event.type === 'xstate.error.actor.sendToStorage';
  }

  async expectState(state: string, index: number, modelPath: ModelPath): Promise<void> {
    const dialog = this.dialog;
    // Progress is no new entry: the state is the one before, and no new request is made.
    const entered = modelPath.steps[index - 1]?.state !== state ? 1 : 0;
    const progress = dialog.getByRole('progressbar');
    switch (state) {
      case 'waiting.idle':
        await expect(dialog.getByText('Choose a PDF')).toBeVisible();
        await expect(dialog.getByRole('alert')).toHaveCount(0);
        return;
      case 'waiting.rejected':
        await expect(dialog.getByText('Choose a PDF')).toBeVisible();
        await expect(dialog.getByRole('alert')).toHaveText(messageOf(this.errorCode));
        return;
      // The three steps of an upload look alike in the modal; which request the page has made tells them
      // apart: the ticket asked for, the file sent to the store, the document created.
      case 'uploading.requesting':
        this.seen.requestUpload += entered;
        await expect(dialog.getByText(`Uploading ${this.fileName}`)).toBeVisible();
        await expect(progress).toHaveAttribute('aria-valuenow', '0');
        await expect.poll(() => this.held.count('requestUpload')).toBe(this.seen.requestUpload);
        return;
      case 'uploading.sending':
        this.seen.sendToStorage += entered;
        await expect(dialog.getByText(`Uploading ${this.fileName}`)).toBeVisible();
        await expect.poll(() => this.held.count('sendToStorage')).toBe(this.seen.sendToStorage);
        return;
      case 'uploading.creating':
        this.seen.createDocument += entered;
        await expect(progress).toHaveAttribute('aria-valuenow', '100');
        await expect.poll(() => this.held.count('createDocument')).toBe(this.seen.createDocument);
        return;
      case 'error':
        await expect(dialog.getByRole('alert')).toHaveText(messageOf(this.errorCode));
        await expect(dialog.getByRole('button', { name: /Try again|Choose another file/ })).toBeVisible();
        return;
      case 'finished':
        await expect(dialog.getByRole('status')).toHaveText(`${this.fileName} has been uploaded.`);
        return;
      case 'cancelled':
        await expect(dialog).toBeHidden();
        // Nothing of a cancelled upload is kept: no row, no error.
        await expect(this.page.getByRole('alert')).toHaveCount(0);
        await expect(this.page.getByRole('row', { name: new RegExp(`\\b${this.tag} `) })).toHaveCount(0);
        return;
      case 'closed':
        await expect(dialog).toBeHidden();
        await expect(this.page.getByRole('row', { name: this.fileName })).toHaveAttribute(
          'aria-selected',
          'true',
        );
        return;
      default:
        throw new Error(`no page assertion for upload state ${state}`);
    }
  }
}

let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;

async function signedInPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState, baseURL: process.env.PARAPH_URL });
  return context.newPage();
}

startPrivateServerForFile();

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, ACCOUNT);
  storageState = await page.context().storageState();
  await page.close();
});

test('the upload paths take every transition of the machine', () => {
  expect(UPLOAD.unreached).toEqual([]);
  expect(coveredTransitions(UPLOAD.paths).size).toBe(UPLOAD.transitions);
});

const PDF = makePdf({ pages: 1, text: 'Replayed upload' });

for (const [index, modelPath] of UPLOAD.paths.entries()) {
  test(pathTitle('upload', index, modelPath), async ({ browser }) => {
    const page = await signedInPage(browser);
    const adapter = new UploadAdapter(
      page,
      `u${index + 1}`,
      await PDF,
      Buffer.from('%PDF-1.7\nnot really\n'),
    );
    await adapter.open();
    await replay(adapter, modelPath);
    await page.context().close();
  });
}
