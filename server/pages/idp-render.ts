// The identity app's HTML (server/pages/idp.ts serves it): phone-sized pages with no script, under the
// strict CSP like the sign-in page. Every value that came from a person (file names, names, location,
// reason) goes through escapeHtml; ids are UUIDs checked by the routes before they get here.
import type { SmartCardType } from '../signing/smart-card-type.ts';
import { escapeHtml } from './html.ts';

export type IdpVersionState =
  | 'pending'
  // Confirmed; the signature is being applied.
  | 'signing'
  | 'signed'
  | 'sign_limit_exceeded'
  | 'presign_error'
  | 'denied'
  | 'cancelled';

export type IdpRequestView = {
  id: string;
  filename: string;
  signerName: string;
  // The document's owner; null when the signer owns the document.
  ownerName: string | null;
  smartCardType: SmartCardType;
  location: string;
  reason: string;
  createdAt: string;
};

export const IDP_TITLE = 'Paraph ID';

export const idpRequestPath = (versionId: string): string => `/idp/requests/${versionId}`;

const STYLE = `
  :root { color-scheme: light; font-family: "Segoe UI", system-ui, -apple-system, sans-serif; }
  * { box-sizing: border-box; }
  body { margin: 0; background: #f5f5f5; color: #242424; font-size: 17px; line-height: 1.45; }
  header { background: #0f6cbd; color: #fff; }
  .bar { max-width: 420px; margin: 0 auto; padding: 14px 16px; display: flex; align-items: center;
    justify-content: space-between; gap: 12px; }
  .brand { color: #fff; font-size: 20px; font-weight: 700; text-decoration: none; }
  .who { font-size: 14px; text-align: right; overflow-wrap: anywhere; }
  .who a { color: #fff; display: inline-block; padding: 4px 0; }
  main { max-width: 420px; margin: 0 auto; padding: 16px; }
  h1 { font-size: 24px; margin: 8px 0 16px; }
  .requests { list-style: none; margin: 0; padding: 0; }
  .requests li { margin-bottom: 12px; }
  .card { display: block; background: #fff; border-radius: 12px; padding: 16px; color: inherit;
    text-decoration: none; box-shadow: 0 1px 4px rgba(0,0,0,.14); }
  a.card { min-height: 48px; }
  a.card:focus-visible { outline: 3px solid #0f6cbd; outline-offset: 2px; }
  .file { font-size: 19px; font-weight: 600; overflow-wrap: anywhere; margin: 0 0 8px; color: #0f6cbd; }
  dl { margin: 0; display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; }
  dt { color: #616161; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .empty { background: #fff; border-radius: 12px; padding: 24px 16px; text-align: center; color: #424242; }
  .actions { display: grid; gap: 12px; margin-top: 20px; }
  .actions form { margin: 0; }
  button { width: 100%; min-height: 52px; font: inherit; font-weight: 600; border-radius: 8px;
    cursor: pointer; }
  button:focus-visible { outline: 3px solid #242424; outline-offset: 2px; }
  .confirm { background: #0f6cbd; color: #fff; border: 0; }
  .deny { background: #fff; color: #b10e1c; border: 2px solid #b10e1c; }
  .outcome { margin: 20px 0 0; padding: 14px 16px; border-radius: 8px; font-weight: 600; }
  .outcome.good { background: #f1faf1; color: #0e700e; border: 1px solid #9fd89f; }
  .outcome.bad { background: #fdf3f4; color: #b10e1c; border: 1px solid #f1bbbc; }
  .outcome.neutral { background: #fafafa; color: #424242; border: 1px solid #d1d1d1; }
  .outcome.warning { background: #fff9f5; color: #8a3707; border: 1px solid #fdcfb4; }
  .hint { color: #616161; font-size: 15px; margin: 12px 0 0; }
  .back { display: inline-flex; align-items: center; min-height: 48px; margin-top: 8px; color: #0f6cbd;
    font-weight: 600; }
`;

const LEVEL_KIND: Record<string, string> = { personal: 'Personal', business: 'Business' };

/** "personal_level3" -> "Personal level 3"; "default" -> "Default level". */
export function smartCardLevelLabel(type: SmartCardType): string {
  const match = /^(personal|business)_level(\d)$/.exec(type);
  if (match === null) return 'Default level';
  return `${LEVEL_KIND[match[1] ?? ''] ?? 'Personal'} level ${match[2] ?? ''}`;
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

function readableTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : `${DATE_FORMAT.format(time)} UTC`;
}

const OUTCOMES: Record<Exclude<IdpVersionState, 'pending'>, { text: string; tone: string }> = {
  signing: { text: 'Confirmed: the signature is being applied', tone: 'good' },
  signed: { text: 'Signed', tone: 'good' },
  denied: { text: 'Denied', tone: 'neutral' },
  cancelled: { text: 'Cancelled', tone: 'neutral' },
  sign_limit_exceeded: { text: 'The monthly signing limit of your plan is reached', tone: 'bad' },
  presign_error: { text: 'The document could not be prepared for signing', tone: 'bad' },
};

export function outcomeText(state: Exclude<IdpVersionState, 'pending'>): string {
  return OUTCOMES[state].text;
}

type Viewer = { fullName: string; email: string };

/** The languages of the identity app's notices: the signer's profile language, else English. */
export type IdpLocale = 'en' | 'es' | 'fr';

export function idpLocale(value: string | null | undefined): IdpLocale {
  const language = value?.toLowerCase().split(/[-_]/)[0];
  return language === 'es' || language === 'fr' ? language : 'en';
}

// The page around it is English, its button "Confirm": the other languages name the button as it reads.
const SERVICE_UNAVAILABLE: Record<IdpLocale, string> = {
  en: 'The signing service is temporarily unavailable, so nothing was signed. Your request is still open: press Confirm again in a few moments.',
  es: 'El servicio de firma no está disponible en este momento, así que no se ha firmado nada. Su solicitud sigue abierta: vuelva a pulsar «Confirm» dentro de unos instantes.',
  fr: 'Le service de signature est momentanément indisponible : rien n’a été signé. Votre demande reste ouverte : appuyez de nouveau sur « Confirm » dans quelques instants.',
};

/** Why a confirmation did not sign and may be sent again, shown above the request's buttons. */
export type IdpRetryNotice = { code: string; locale: IdpLocale };

export function serviceUnavailableText(locale: IdpLocale): string {
  return SERVICE_UNAVAILABLE[locale];
}

function page(title: string, viewer: Viewer | null, content: string): string {
  const who =
    viewer === null
      ? ''
      : `<div class="who">${escapeHtml(viewer.fullName)}<br><a href="/api/log_out?return_to=%2Fidp%2F">Sign out</a></div>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · ${IDP_TITLE}</title>
<link rel="icon" href="/app/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<header><div class="bar"><a class="brand" href="/idp/">${IDP_TITLE}</a>${who}</div></header>
<main>
${content}
</main>
</body>
</html>
`;
}

function details(request: IdpRequestView): string {
  const rows: [string, string][] = [
    ['Signer', request.signerName],
    ['Requested by', request.ownerName ?? 'You (your own document)'],
    ['Level', smartCardLevelLabel(request.smartCardType)],
    ['Location', request.location],
    ...(request.reason === '' ? [] : ([['Reason', request.reason]] as [string, string][])),
  ];
  return `<dl>
${rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}
<dt>Requested</dt><dd><time datetime="${escapeHtml(request.createdAt)}">${escapeHtml(readableTime(request.createdAt))}</time></dd>
</dl>`;
}

export function renderRequestList(viewer: Viewer, requests: readonly IdpRequestView[]): string {
  const content =
    requests.length === 0
      ? `<p class="empty">Nothing to confirm right now. When you sign a document in Paraph, the request appears here.</p>`
      : `<ul class="requests">
${requests
  .map(
    (request) => `<li><a class="card" href="${idpRequestPath(request.id)}">
<p class="file">${escapeHtml(request.filename)}</p>
${details(request)}
</a></li>`,
  )
  .join('\n')}
</ul>`;
  return page(
    'Signature requests',
    viewer,
    `<h1>Signature requests</h1>
${content}`,
  );
}

export function renderRequest(
  viewer: Viewer,
  request: IdpRequestView,
  state: IdpVersionState,
  csrfToken: string,
  retry: IdpRetryNotice | null = null,
): string {
  let answer: string;
  if (state === 'pending') {
    const token = escapeHtml(csrfToken);
    const notice =
      retry === null
        ? ''
        : `<p class="outcome warning" role="alert" lang="${retry.locale}" data-code="${escapeHtml(retry.code)}">${escapeHtml(serviceUnavailableText(retry.locale))}</p>\n`;
    answer = `${notice}<div class="actions">
<form method="post" action="${idpRequestPath(request.id)}/confirm"><input type="hidden" name="csrf_token" value="${token}"><button class="confirm" type="submit">Confirm</button></form>
<form method="post" action="${idpRequestPath(request.id)}/deny"><input type="hidden" name="csrf_token" value="${token}"><button class="deny" type="submit">Deny</button></form>
</div>
<p class="hint">Confirm only if you asked to sign this document yourself.</p>`;
  } else {
    const outcome = OUTCOMES[state];
    answer = `<p class="outcome ${outcome.tone}" role="status">${escapeHtml(outcome.text)}</p>`;
  }
  return page(
    'Signature request',
    viewer,
    `<h1>${state === 'pending' ? 'Confirm your signature' : 'Signature request'}</h1>
<div class="card">
<p class="file">${escapeHtml(request.filename)}</p>
${details(request)}
</div>
${answer}
<a class="back" href="/idp/">All requests</a>`,
  );
}

export function renderNotice(viewer: Viewer | null, title: string, message: string): string {
  return page(
    title,
    viewer,
    `<h1>${escapeHtml(title)}</h1>
<p class="empty" role="alert">${escapeHtml(message)}</p>
<a class="back" href="/idp/">All requests</a>`,
  );
}
