// A person's journey through the proxy, as the app makes it: sign in (the form, then the token), upload
// (an upload grant from one instance, the file posted straight to the S3 store with the grant's presigned
// fields, the document created on the other instance), a sign flow for another person, who signs with one
// of their smart cards (on another instance than the flow's), the identity app's confirmation (the
// server's auto-confirmation), and the signed PDF downloaded from the store and checked.
// A 503 is what a draining instance or an instance without its database answers: the client waits and
// asks again, as the app does. Any other unexpected answer ends the journey with the step that failed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { makePdf } from '../fixtures/pdfs.ts';
import type { Exchange } from './proxy.ts';

export type Person = { email: string; password: string };

export type Answer = {
  status: number;
  text: string;
  headers: Headers;
  instance: string | null;
  // The 503s (and 502 no-instance) waited out before this answer.
  retried: number;
};

export class StepFailure extends Error {
  readonly step: string;
  readonly instance: string | null;

  constructor(step: string, message: string, instance: string | null = null) {
    super(message);
    this.step = step;
    this.instance = instance;
    this.name = 'StepFailure';
  }
}

const RETRY_FOR_MS = 30_000;
const SIGNED_WITHIN_MS = 60_000;

export type Context = {
  origin: string;
  workDir: string;
  now: () => number;
  // Exchanges with the object store (the proxy records its own).
  storeExchanges: Exchange[];
  hasPdfsig: boolean;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

type RequestOptions = {
  token?: string;
  cookie?: string;
  json?: unknown;
  form?: Record<string, string>;
  avoid?: string | null;
};

/** One call through the proxy; 503 and "no instance reachable" are waited out for up to 30 s. */
export async function call(
  ctx: Context,
  step: string,
  method: string,
  pathname: string,
  options: RequestOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (options.avoid) headers['x-fleet-avoid'] = options.avoid;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    // The sign-in form accepts posts from its own origin only: a browser on the proxy's origin says so.
    headers.origin = ctx.origin;
    body = new URLSearchParams(options.form).toString();
  }
  const deadline = ctx.now() + RETRY_FOR_MS;
  let retried = 0;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(`${ctx.origin}${pathname}`, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new StepFailure(step, `${method} ${pathname}: no answer from the proxy (${String(error)})`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new StepFailure(
        step,
        `${method} ${pathname}: the answer (${response.status}) was cut short (${String(error)})`,
        response.headers.get('x-fleet-instance'),
      );
    }
    const waitable =
      response.status === 503 ||
      (response.status === 502 && response.headers.get('x-fleet-proxy-error') === 'no-instance');
    if (waitable && ctx.now() < deadline) {
      retried += 1;
      const retryAfter = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 2000) : 500);
      continue;
    }
    return {
      status: response.status,
      text,
      headers: response.headers,
      instance: response.headers.get('x-fleet-instance'),
      retried,
    };
  }
}

function expectStatus(step: string, answer: Answer, expected: number, what: string): void {
  if (answer.status !== expected) {
    const from = answer.instance === null ? 'the proxy' : `instance ${answer.instance}`;
    throw new StepFailure(
      step,
      `${what}: expected ${expected}, got ${answer.status} from ${from}` +
        `${answer.retried > 0 ? ` after waiting out ${answer.retried} unavailable answers` : ''}: ` +
        answer.text.slice(0, 300).replace(/\s+/g, ' '),
      answer.instance,
    );
  }
}

function parse<T>(step: string, answer: Answer): T {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    throw new StepFailure(step, `the answer is not JSON: ${answer.text.slice(0, 200)}`, answer.instance);
  }
}

/** The sign-in form, then the token for the session cookie: two requests, usually two instances. */
export async function signIn(ctx: Context, person: Person): Promise<string> {
  const form = await call(ctx, 'sign in', 'POST', '/sign_in', {
    form: { email: person.email, password: person.password, return_to: '/app/auth' },
  });
  expectStatus('sign in', form, 303, `POST /sign_in as ${person.email}`);
  const session = form.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('paraph_session='));
  if (session === undefined)
    throw new StepFailure('sign in', 'the sign-in set no session cookie', form.instance);
  const tokens = await call(ctx, 'sign in', 'GET', '/api/tokens', { cookie: session });
  expectStatus('sign in', tokens, 200, 'GET /api/tokens with the session cookie');
  const token = parse<{ access_token?: unknown }>('sign in', tokens).access_token;
  if (typeof token !== 'string') throw new StepFailure('sign in', 'no access_token', tokens.instance);
  return token;
}

export type JourneyRecord = {
  n: number;
  owner: string;
  signatory: string;
  filename: string;
  sha256: string;
  startedAt: number;
  endedAt: number | null;
  // Which instance answered each step.
  instances: Record<string, string | null>;
  // Acknowledged writes (a 2xx answer): each must still be there at the end.
  documentId: string | null;
  isFlowAcknowledged: boolean;
  versionId: string | null;
  // Reached the end: signed, downloaded, and the file carries one valid signature.
  isComplete: boolean;
  signedPages: number | null;
  failure: { step: string; message: string; instance: string | null; at: number } | null;
};

type UploadAttributes = Record<string, string | number>;

function storeRecord(
  ctx: Context,
  startedAt: number,
  method: string,
  url: string,
  status: number,
  note?: string,
) {
  ctx.storeExchanges.push({
    startedAt,
    endedAt: ctx.now(),
    method,
    path: new URL(url).pathname,
    status,
    source: 'store',
    ...(note === undefined ? {} : { note }),
  });
}

/** The number of valid signatures pdfsig finds, or null without pdfsig. */
function validSignatures(ctx: Context, pdf: Buffer, name: string): number | null {
  if (!ctx.hasPdfsig) return null;
  const file = path.join(ctx.workDir, `${name}.pdf`);
  writeFileSync(file, pdf);
  let report: string;
  try {
    report = execFileSync('pdfsig', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    // pdfsig exits non-zero when a signature does not verify; its report is what counts.
    report = String((error as { stdout?: unknown }).stdout ?? '');
  }
  return report.split('Signature is Valid.').length - 1;
}

export async function runJourney(
  ctx: Context,
  n: number,
  runTag: string,
  owner: Person,
  signatory: Person,
  record: (journey: JourneyRecord) => void,
): Promise<JourneyRecord> {
  const pdf = await makePdf({ pages: 2, text: `Fleet ${runTag} ${n}` });
  const journey: JourneyRecord = {
    n,
    owner: owner.email,
    signatory: signatory.email,
    filename: `fleet-${runTag}-${n}.pdf`,
    sha256: sha256(pdf),
    startedAt: ctx.now(),
    endedAt: null,
    instances: {},
    documentId: null,
    isFlowAcknowledged: false,
    versionId: null,
    isComplete: false,
    signedPages: null,
    failure: null,
  };
  record(journey);
  try {
    const ownerToken = await signIn(ctx, owner);

    const grant = await call(ctx, 'upload grant', 'POST', '/api/upload_requests', { token: ownerToken });
    expectStatus('upload grant', grant, 201, 'POST /api/upload_requests');
    journey.instances.grant = grant.instance;
    const ticket = parse<{ data: { attributes: UploadAttributes } }>('upload grant', grant).data.attributes;
    const url = String(ticket.url);
    const key = String(ticket.key);
    if (!url.startsWith('http')) {
      throw new StepFailure('upload grant', `the grant's URL is not the S3 store's: ${url}`, grant.instance);
    }

    // The browser's presigned POST, straight to the store, from a page on the proxy's origin.
    const form = new FormData();
    const fields: Record<string, string> = {
      key,
      acl: String(ticket.acl),
      policy: String(ticket.policy),
      success_action_status: String(ticket.successActionStatus),
      'X-Amz-Credential': String(ticket.xAmzCredential),
      'X-Amz-Signature': String(ticket.xAmzSignature),
      'X-Amz-Algorithm': String(ticket.xAmzAlgorithm),
      'X-Amz-Date': String(ticket.xAmzDate),
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), journey.filename);
    const postedAt = ctx.now();
    const stored = await fetch(url, { method: 'POST', body: form, headers: { origin: ctx.origin } });
    const storedText = await stored.text();
    storeRecord(ctx, postedAt, 'POST', url, stored.status);
    if (stored.status !== 201) {
      throw new StepFailure(
        'upload',
        `the store answered the presigned POST with ${stored.status}: ${storedText.slice(0, 300)}`,
      );
    }
    // Without this header a browser would not let the app read the store's answer.
    if (stored.headers.get('access-control-allow-origin') !== ctx.origin) {
      throw new StepFailure(
        'upload',
        `the store's answer allows origin ${String(stored.headers.get('access-control-allow-origin'))}, not ${ctx.origin}`,
      );
    }

    const created = await call(ctx, 'create document', 'POST', '/api/documents', {
      token: ownerToken,
      json: { original_filename: journey.filename, file_url: `${url}/${key}`, filename: key },
      avoid: grant.instance,
    });
    expectStatus('create document', created, 201, 'POST /api/documents');
    journey.instances.create = created.instance;
    journey.documentId = parse<{ data: { id: string } }>('create document', created).data.id;
    const id = journey.documentId;

    const flow = await call(ctx, 'sign flow', 'POST', `/api/documents/${id}/sign_flow`, {
      token: ownerToken,
      json: { sign_flow: { type: 'standard', signatory_email_addresses: [signatory.email] } },
    });
    expectStatus('sign flow', flow, 201, 'POST /api/documents/{id}/sign_flow');
    journey.instances.flow = flow.instance;
    journey.isFlowAcknowledged = true;

    const signatoryToken = await signIn(ctx, signatory);
    const cards = await call(ctx, 'smart cards', 'GET', '/api/smart_cards', { token: signatoryToken });
    expectStatus('smart cards', cards, 200, 'GET /api/smart_cards');
    const card = parse<{ data: { id: string }[] }>('smart cards', cards).data[0];
    if (card === undefined) throw new StepFailure('smart cards', `${signatory.email} has no smart card`);

    const sign = await call(ctx, 'sign', 'PATCH', `/api/documents/${id}/sign`, {
      token: signatoryToken,
      json: { smart_card_id: card.id, location: 'Utrecht', reason: 'Fleet test' },
      avoid: flow.instance,
    });
    expectStatus('sign', sign, 200, 'PATCH /api/documents/{id}/sign');
    journey.instances.sign = sign.instance;
    journey.versionId = parse<{ data: { id: string } }>('sign', sign).data.id;

    // The identity app's confirmation comes from the server's auto-confirmation, on either instance.
    const signedBy = ctx.now() + SIGNED_WITHIN_MS;
    let downloadUrl: string | null = null;
    for (;;) {
      const document = await call(ctx, 'signed', 'GET', `/api/documents/${id}`, { token: ownerToken });
      expectStatus('signed', document, 200, 'GET /api/documents/{id}');
      const attributes = parse<{ data: { attributes: { state: string; pdfDownloadUrl: string | null } } }>(
        'signed',
        document,
      ).data.attributes;
      if (attributes.state === 'signed' && attributes.pdfDownloadUrl !== null) {
        downloadUrl = attributes.pdfDownloadUrl;
        break;
      }
      if (ctx.now() > signedBy) {
        throw new StepFailure(
          'signed',
          `still ${attributes.state} ${SIGNED_WITHIN_MS / 1000} s after the sign call`,
        );
      }
      await sleep(500);
    }

    const fetchedAt = ctx.now();
    const download = await fetch(downloadUrl);
    const bytes = Buffer.from(await download.arrayBuffer());
    storeRecord(ctx, fetchedAt, 'GET', downloadUrl, download.status);
    if (download.status !== 200) throw new StepFailure('download', `the store answered ${download.status}`);
    if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-')) || !bytes.includes('/ByteRange')) {
      throw new StepFailure(
        'download',
        'the downloaded file is not a signed PDF (no %PDF- header or no /ByteRange)',
      );
    }
    const valid = validSignatures(ctx, bytes, `journey-${n}`);
    if (valid !== null && valid !== 1) {
      throw new StepFailure('download', `pdfsig finds ${valid} valid signatures in the signed file, not 1`);
    }
    journey.signedPages = (await PDFDocument.load(bytes)).getPageCount();
    journey.isComplete = true;
  } catch (error) {
    const failure =
      error instanceof StepFailure
        ? { step: error.step, message: error.message, instance: error.instance }
        : { step: 'unexpected', message: String(error), instance: null };
    journey.failure = { ...failure, at: ctx.now() };
  }
  journey.endedAt = ctx.now();
  return journey;
}
