// /dev/outbox: the messages Paraph would have e-mailed (invitations, turn notifications, connection
// invitations), newest first, so that someone trying Paraph on one machine can follow an invitation's
// link. Only in demo mode (PARAPH_DEMO, on by default locally): a real deployment sends mail instead, and
// these messages carry sign-up links meant for their recipient alone. Plain HTML, no script; every value
// is escaped, and only links to this server's own pages are made clickable.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.ts';
import { escapeHtml, PAGE_STYLE } from './html.ts';

const SHOWN = 100;
// After escaping: this server's pages only (a path), never another site's address.
const OWN_LINK = /(^|\s)(\/(?:sign_up|sign_in|app\/|idp\/)[^\s]*)/g;
// The identity app's links are absolute (a phone opens them): shown whole, followed as this server's path,
// so even a message naming another host leads only here.
const IDP_LINK = /(^|\s)https?:\/\/[^\s/]+(\/idp\/[^\s]*)/g;

function linkify(escaped: string): string {
  return escaped
    .replace(OWN_LINK, (_match, space: string, path: string) => `${space}<a href="${path}">${path}</a>`)
    .replace(IDP_LINK, (match: string, space: string, path: string) => {
      const shown = match.slice(space.length);
      return `${space}<a href="${path}">${shown}</a>`;
    });
}

export function renderOutbox(
  messages: readonly { to_email: string; subject: string; body: string; created_at: string }[],
): string {
  const items =
    messages.length === 0
      ? '<p>No message yet.</p>'
      : `<ol class="outbox">${messages
          .map(
            (message) => `<li>
<p><strong>${escapeHtml(message.subject)}</strong><br>
To ${escapeHtml(message.to_email)} · <time datetime="${escapeHtml(message.created_at)}">${escapeHtml(message.created_at)}</time></p>
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
<p class="lead">What Paraph would have e-mailed, newest first (demo mode only).</p>
${items}
</main>
</body>
</html>
`;
}

export function registerDevOutbox(app: FastifyInstance, deps: AppDeps): void {
  if (!deps.config.demo) return;
  app.get('/dev/outbox', async (_req, reply) => {
    const messages = await deps.db
      .selectFrom('outbox')
      .select(['to_email', 'subject', 'body', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(SHOWN)
      .execute();
    return reply
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderOutbox(messages));
  });
}
