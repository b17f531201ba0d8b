// What Paraph e-mails, and how a message is written: each kind of message is data (its kind and the
// values it names), queued as JSON and rendered when it is sent, in the recipient's language (en, es,
// fr; every string in ./catalogs), as plain text and as simple HTML. Every link is absolute, on the
// configured public origin, and carries no token: it opens the app, which asks for sign-in. Names, file
// names, comments and reasons are user text: escaped in the HTML, never markup.
import { IntlMessageFormat } from 'intl-messageformat';
import { escapeHtml } from '../pages/html.ts';
import { idpRequestPath } from '../pages/idp-render.ts';
import en from './catalogs/en.json' with { type: 'json' };
import es from './catalogs/es.json' with { type: 'json' };
import fr from './catalogs/fr.json' with { type: 'json' };

export const MAIL_LOCALES = ['en', 'es', 'fr'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];
export type MailCatalogId = keyof typeof en;

const CATALOGS: Record<MailLocale, Record<MailCatalogId, string>> = { en, es, fr };

export function toMailLocale(value: string | null | undefined): MailLocale {
  const language = value?.trim().toLowerCase().split(/[-_]/)[0];
  return (MAIL_LOCALES as readonly string[]).includes(language ?? '') ? (language as MailLocale) : 'en';
}

export type Person = { fullName: string; email: string };
export type FlowRole = 'signatory' | 'reviewer';

/** Where a flow message's link leads: the document's page, or for someone without an account their invite. */
export type DocumentTarget = { documentId: string; inviteId: string | null };

export type MailMessage =
  | {
      kind: 'flow.invitation';
      role: FlowRole;
      sender: Person;
      filename: string;
      comment: string;
      email: string;
      inviteId: string;
    }
  | {
      kind: 'flow.turn';
      role: FlowRole;
      sender: Person;
      filename: string;
      /** The owner's message to the participants. */
      comment: string;
      target: DocumentTarget;
    }
  | {
      kind: 'flow.reminder';
      role: FlowRole;
      sender: Person;
      filename: string;
      target: DocumentTarget;
      /** When the person's turn came (ISO). */
      since: string;
    }
  // No target: the document is gone (its owner deleted it, which cancelled the flow).
  | { kind: 'flow.completed'; filename: string; target: DocumentTarget | null }
  | {
      kind: 'flow.refused' | 'flow.rejected' | 'flow.cancelled';
      actor: Person;
      filename: string;
      target: DocumentTarget | null;
      reason: string | null;
    }
  | { kind: 'connection.request'; sender: Person }
  | { kind: 'connection.invitation'; sender: Person; email: string }
  | {
      kind: 'signature.confirmation';
      filename: string;
      smartCardType: string;
      location: string;
      versionId: string;
    }
  // Messages written before the queue existed: their text as it was stored.
  | { kind: 'text'; subject: string; body: string };

export type MailKind = MailMessage['kind'];

export type RenderedMail = { subject: string; text: string; html: string };

export const documentPath = (documentId: string): string => `/app/document/${documentId}`;
export const invitePath = (inviteId: string): string => `/app/signflowmember/invite/${inviteId}`;
export const signUpPath = (inviteId: string): string => `/sign_up?invite=${encodeURIComponent(inviteId)}`;
export const CONNECTIONS_PATH = '/app/connections';
// Accounts are not made here except through a sign flow's invitation: the login page says where to get one.
export const LOGIN_PATH = '/app/login';

type Link = { label: string; lead: string; url: string };
type Block = { text: string; quoted?: boolean; label?: string };
type Parts = { subject: string; blocks: Block[]; links: Link[]; notes: string[] };

function formatter(locale: MailLocale) {
  const catalog = CATALOGS[locale];
  return (id: MailCatalogId, values: Record<string, string | number | Date> = {}): string => {
    const formatted = new IntlMessageFormat(catalog[id], locale).format(values);
    return Array.isArray(formatted) ? formatted.join('') : String(formatted);
  };
}

function targetPath(target: DocumentTarget): string {
  return target.inviteId === null ? documentPath(target.documentId) : invitePath(target.inviteId);
}

function smartCardLevel(t: ReturnType<typeof formatter>, type: string): string {
  const match = /^(personal|business)_level(\d)$/.exec(type);
  return t('signature.confirmation.level', {
    kind: match?.[1] ?? 'default',
    number: match?.[2] ?? '',
  });
}

function partsOf(message: MailMessage, locale: MailLocale, origin: string): Parts {
  const t = formatter(locale);
  const url = (path: string): string => `${origin}${path}`;
  switch (message.kind) {
    case 'flow.invitation': {
      const values = {
        sender: message.sender.fullName,
        senderEmail: message.sender.email,
        role: message.role,
        filename: message.filename,
      };
      return {
        subject: t('flow.invitation.subject', values),
        blocks: [
          { text: t('flow.invitation.intro', values) },
          ...(message.comment === '' ? [] : [{ text: message.comment, quoted: true, label: t('comment') }]),
        ],
        links: [
          {
            label: t('flow.invitation.action'),
            lead: t('flow.invitation.actionText', { email: message.email }),
            url: url(signUpPath(message.inviteId)),
          },
          {
            label: t('flow.invitation.other'),
            lead: t('flow.invitation.other'),
            url: url(invitePath(message.inviteId)),
          },
        ],
        notes: [],
      };
    }
    case 'flow.turn': {
      const values = { sender: message.sender.fullName, role: message.role, filename: message.filename };
      return {
        subject: t('flow.turn.subject', values),
        blocks: [
          { text: t('flow.turn.intro', values) },
          ...(message.comment === '' ? [] : [{ text: message.comment, quoted: true, label: t('comment') }]),
        ],
        links: [
          {
            label: t('flow.turn.action'),
            lead: t('flow.turn.actionText'),
            url: url(targetPath(message.target)),
          },
        ],
        notes: [],
      };
    }
    case 'flow.reminder': {
      const values = {
        sender: message.sender.fullName,
        role: message.role,
        filename: message.filename,
        since: new Date(message.since),
      };
      return {
        subject: t('flow.reminder.subject', values),
        blocks: [{ text: t('flow.reminder.intro', values) }],
        links: [
          {
            label: t('flow.reminder.action'),
            lead: t('flow.reminder.actionText'),
            url: url(targetPath(message.target)),
          },
        ],
        notes: [t('flow.reminder.note')],
      };
    }
    case 'flow.completed':
      return {
        subject: t('flow.completed.subject', { filename: message.filename }),
        blocks: [{ text: t('flow.completed.intro', { filename: message.filename }) }],
        links:
          message.target === null
            ? []
            : [
                {
                  label: t('flow.completed.action'),
                  lead: t('flow.completed.actionText'),
                  url: url(targetPath(message.target)),
                },
              ],
        notes: [],
      };
    case 'flow.refused':
    case 'flow.rejected':
    case 'flow.cancelled': {
      const values = {
        actor: message.actor.fullName,
        actorEmail: message.actor.email,
        filename: message.filename,
      };
      return {
        subject: t(`${message.kind}.subject`, values),
        blocks: [
          { text: t(`${message.kind}.intro`, values) },
          ...(message.reason === null || message.reason === ''
            ? []
            : [{ text: message.reason, quoted: true, label: t('reason') }]),
        ],
        links:
          message.target === null
            ? []
            : [
                {
                  label: t('flow.ended.action'),
                  lead: t('flow.ended.actionText'),
                  url: url(targetPath(message.target)),
                },
              ],
        notes: [],
      };
    }
    case 'connection.request':
    case 'connection.invitation': {
      const values = { sender: message.sender.fullName, senderEmail: message.sender.email };
      const link =
        message.kind === 'connection.request'
          ? {
              label: t('connection.request.action'),
              lead: t('connection.request.actionText'),
              url: url(CONNECTIONS_PATH),
            }
          : {
              label: t('connection.invitation.action'),
              lead: t('connection.invitation.actionText', { email: message.email }),
              url: url(LOGIN_PATH),
            };
      return {
        subject: t('connection.request.subject', values),
        blocks: [{ text: t('connection.request.intro', values) }],
        links: [link],
        notes: [],
      };
    }
    case 'signature.confirmation':
      return {
        subject: t('signature.confirmation.subject', { filename: message.filename }),
        blocks: [
          {
            text: t('signature.confirmation.intro', {
              filename: message.filename,
              level: smartCardLevel(t, message.smartCardType),
              location: message.location,
            }),
          },
        ],
        links: [
          {
            label: t('signature.confirmation.action'),
            lead: t('signature.confirmation.actionText'),
            url: url(idpRequestPath(message.versionId)),
          },
        ],
        notes: [t('signature.confirmation.note')],
      };
    case 'text':
      return { subject: message.subject, blocks: [{ text: message.body }], links: [], notes: [] };
  }
}

function textOf(parts: Parts, footer: string): string {
  const lines: string[] = [];
  for (const block of parts.blocks) {
    if (block.label !== undefined) lines.push(block.label);
    lines.push(block.quoted === true ? block.text.replace(/^/gm, '> ') : block.text, '');
  }
  for (const link of parts.links) lines.push(link.lead, link.url, '');
  for (const note of parts.notes) lines.push(note, '');
  lines.push('-- ', footer);
  return lines.join('\n');
}

// Inline styles and one table: what common mail clients (including those that drop <style>) show alike.
function htmlOf(parts: Parts, locale: MailLocale, footer: string, fallback: string): string {
  const paragraph = 'margin:0 0 16px;font-size:16px;line-height:24px;';
  const blocks = parts.blocks
    .map((block) => {
      const label =
        block.label === undefined
          ? ''
          : `<p style="${paragraph}margin-bottom:4px;color:#616161;">${escapeHtml(block.label)}</p>`;
      const text = escapeHtml(block.text);
      return block.quoted === true
        ? `${label}<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:4px solid #d1d1d1;white-space:pre-wrap;font-size:16px;line-height:24px;">${text}</blockquote>`
        : `<p style="${paragraph}white-space:pre-wrap;">${text}</p>`;
    })
    .join('\n');
  const [primary, ...others] = parts.links;
  const button =
    primary === undefined
      ? ''
      : `<p style="${paragraph}"><a href="${escapeHtml(primary.url)}" style="display:inline-block;padding:12px 20px;border-radius:4px;background:#0f6cbd;color:#ffffff;font-weight:600;text-decoration:none;">${escapeHtml(primary.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#616161;">${escapeHtml(fallback)}<br><a href="${escapeHtml(primary.url)}" style="color:#0f6cbd;word-break:break-all;">${escapeHtml(primary.url)}</a></p>`;
  const more = others
    .map(
      (link) =>
        `<p style="${paragraph}">${escapeHtml(link.lead)}<br><a href="${escapeHtml(link.url)}" style="color:#0f6cbd;word-break:break-all;">${escapeHtml(link.url)}</a></p>`,
    )
    .join('\n');
  const notes = parts.notes
    .map((note) => `<p style="${paragraph}color:#616161;">${escapeHtml(note)}</p>`)
    .join('\n');
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f5f5f5;color:#242424;font-family:'Segoe UI',Helvetica,Arial,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f5f5;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;">
<tr><td style="padding:24px 24px 8px;font-size:20px;font-weight:600;color:#0f6cbd;">Paraph</td></tr>
<tr><td style="padding:8px 24px 8px;">
${blocks}
${button}
${more}
${notes}
</td></tr>
<tr><td style="padding:16px 24px 24px;border-top:1px solid #e0e0e0;font-size:12px;line-height:18px;color:#707070;">${escapeHtml(footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** The message in the recipient's language, with absolute links on `origin`. */
export function renderMail(message: MailMessage, locale: MailLocale, origin: string): RenderedMail {
  const t = formatter(locale);
  const parts = partsOf(message, locale, origin);
  const footer = t('footer');
  return {
    subject: parts.subject,
    text: textOf(parts, footer),
    html: htmlOf(parts, locale, footer, t('linkFallback')),
  };
}

/** The person a message is about (a reply should reach them, not no-reply): its sender or its actor. */
export function replyToOf(message: MailMessage): string | undefined {
  if ('sender' in message) return message.sender.email;
  if ('actor' in message) return message.actor.email;
  return undefined;
}

/**
 * A queued row as it goes out (the sender) or is shown (/dev/outbox): rendered in its language on
 * `origin`, with its Reply-To. A row this version cannot read answers null.
 */
export function renderQueuedMail(
  row: { kind: string; params: string; locale: string },
  origin: string,
): (RenderedMail & { replyTo: string | undefined }) | null {
  const message = parseMailMessage(row.kind, row.params);
  if (message === null) return null;
  return { ...renderMail(message, toMailLocale(row.locale), origin), replyTo: replyToOf(message) };
}

/** A queued row's message; a row this version cannot read answers null (the sender marks it failed). */
export function parseMailMessage(kind: string, params: string): MailMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(params);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const message = { ...(value as Record<string, unknown>), kind } as MailMessage;
  return KINDS.has(message.kind) ? message : null;
}

const KINDS: ReadonlySet<string> = new Set<MailKind>([
  'flow.invitation',
  'flow.turn',
  'flow.reminder',
  'flow.completed',
  'flow.refused',
  'flow.rejected',
  'flow.cancelled',
  'connection.request',
  'connection.invitation',
  'signature.confirmation',
  'text',
]);
