// /dev/outbox: the messages Paraph sends (or, with no SMTP server configured, keeps instead of sending),
// newest first, as their text version, so that someone trying Paraph on one machine can follow their
// links. Only in demo mode (PARAPH_DEMO). It is a mailbox, not a
// log: a signed-in person sees only the messages addressed to them, because messages carry links meant
// for their recipient alone (an invitation's sign-up link creates that person's account). Anyone else is
// sent to sign in. Plain HTML, no script; every value is escaped, and only links to this server's own
// pages are made clickable.
import type {} from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { findSession, SESSION_COOKIE } from '../auth/tokens.ts';
import type { AppDeps } from '../context.ts';
import { renderQueuedMail } from '../mail/messages.ts';
import { escapeHtml, PAGE_STYLE } from './html.ts';

const SHOWN = 100;
// After escaping: this server's pages only (a path), never another site's address.
const OWN_LINK = /(^|\s)(\/(?:sign_up|sign_in|app\/|idp\/)[^\s]*)/g;
// Messages' links are absolute (a mail client opens them): shown whole, followed as this server's path,
// so even a message naming another host leads only here.
const ABSOLUTE_LINK = /(^|\s)https?:\/\/[^\s/]+(\/(?:sign_up|sign_in|app\/|idp\/)[^\s]*)/g;

function linkify(escaped: string): string {
  return escaped
    .replace(OWN_LINK, (_match, space: string, path: string) => `${space}<a href="${path}">${path}</a>`)
    .replace(ABSOLUTE_LINK, (match: string, space: string, path: string) => {
      const shown = match.slice(space.length);
      return `${space}<a href="${path}">${shown}</a>`;
    });
}

export type OutboxEntry = {
  to_email: string;
  subject: string;
  body: string;
  created_at: string;
  state: string;
};

export function renderOutbox(messages: readonly OutboxEntry[]): string {
  const items =
    messages.length === 0
      ? '<p>No message yet.</p>'
      : `<ol class="outbox">${messages
          .map(
            (message) => `<li>
<p><strong>${escapeHtml(message.subject)}</strong><br>
To ${escapeHtml(message.to_email)} · <time datetime="${escapeHtml(message.created_at)}">${escapeHtml(message.created_at)}</time> · ${escapeHtml(message.state)}</p>
<pre>${linkify(escapeHtml(message.body))}</pre>
</li>`,
          )
          .join('\n')}</ol>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Outbox · Paraph</title>
<style>${PAGE_STYLE} .outbox li { margin-bottom: 1.5rem; } pre { white-space: pre-wrap; overflow-wrap: anywhere; }</style>
</head>
<body>
<main>
<h1>Outbox</h1>
<p class="lead">The messages Paraph sent you, or kept for you when no mail server is set, newest first (demo mode only).</p>
${items}
</main>
</body>
</html>
`;
}

export const OUTBOX_SIGN_IN = '/sign_in?return_to=/dev/outbox';

export function registerDevOutbox(app: FastifyInstance, deps: AppDeps): void {
  if (!deps.config.demo) return;
  app.get('/dev/outbox', async (req, reply) => {
    const cookie = req.cookies[SESSION_COOKIE];
    const session = cookie === undefined ? null : await findSession(deps.db, cookie, deps.clock());
    const person =
      session === null
        ? undefined
        : await deps.db
            .selectFrom('users')
            .select('email')
            .where('id', '=', session.userId)
            .executeTakeFirst();
    if (person === undefined) {
      return reply.header('cache-control', 'no-store').redirect(OUTBOX_SIGN_IN, 303);
    }
    const rows = await deps.db
      .selectFrom('mail_queue')
      .select(['to_email', 'kind', 'locale', 'params', 'state', 'created_at'])
      .where((eb) => eb(eb.fn('lower', ['to_email']), '=', person.email.toLowerCase()))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(SHOWN)
      .execute();
    const messages = rows.flatMap((row): OutboxEntry[] => {
      const rendered = renderQueuedMail(row, deps.config.publicOrigin);
      if (rendered === null) return [];
      const { subject, text } = rendered;
      return [{ to_email: row.to_email, subject, body: text, created_at: row.created_at, state: row.state }];
    });
    return reply
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderOutbox(messages));
  });
}
