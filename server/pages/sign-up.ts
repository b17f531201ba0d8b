// The invitee's sign-up page: someone invited to a sign flow by an address with no account creates one
// here (GET/POST /sign_up?invite=<id>). The address is the invite's and cannot be changed, so an invite
// only ever creates the account it was sent to; it does so once (the sign-up marks it used, in the
// transaction that creates the account) and only within PARAPH_INVITE_TTL_DAYS of being sent, so a
// link found later in a mailbox or a log opens nothing. Plain HTML with no script, like the sign-in page. On
// success the person is signed in (session cookie) and sent through /app/auth, which exchanges the cookie
// for a token and opens /app/signflowmember/invite/{id}; the app then accepts the invite.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../context.ts';
import { hashPassword } from '../auth/passwords.ts';
import { sessionCookieOptions } from '../auth/cookies.ts';
import { isCrossSitePost, refuseCrossSitePost } from '../auth/form-origin.ts';
import { beginSignInAttempt, finishSignInAttempt } from '../auth/rate-limit.ts';
import { createSession, SESSION_COOKIE } from '../auth/tokens.ts';
import { actionDb } from '../documents/access.ts';
import { inviteCutoff, invitePath } from '../documents/sign-flow-notify.ts';
import { issueDefaultSmartCard } from '../documents/signing-cards.ts';
import { claimInvitations } from '../handlers/connection-requests.ts';
import { isUniqueViolation } from '../handlers/connections.ts';
import { escapeHtml, PAGE_STYLE } from './html.ts';

export const FULL_NAME_MAX = 255;
export const PASSWORD_MIN = 8;
const PASSWORD_MAX = 1024;

type SignUpView = { inviteId: string; email: string; fullName?: string; error?: string };

/** Where a new account goes: the token exchange, then the invite. */
export function afterSignUp(inviteId: string): string {
  return `/app/auth?returnUrl=${encodeURIComponent(invitePath(inviteId))}`;
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Paraph</title>
<link rel="icon" href="/app/favicon.svg" type="image/svg+xml">
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<h1>Paraph</h1>
${content}
</main>
</body>
</html>
`;
}

export function renderSignUpPage(view: SignUpView): string {
  const error =
    view.error === undefined
      ? ''
      : `<p class="error" role="alert" id="sign-up-error">${escapeHtml(view.error)}</p>`;
  const describedBy = view.error === undefined ? '' : ' aria-describedby="sign-up-error"';
  return page(
    'Create your account',
    `<p class="lead">Create your account to see the document you were invited to.</p>
<form method="post" action="/sign_up?invite=${encodeURIComponent(view.inviteId)}" novalidate>
${error}
<label for="email">E-mail</label>
<input id="email" type="email" value="${escapeHtml(view.email)}" readonly>
<label for="full_name">Full name</label>
<input id="full_name" name="full_name" autocomplete="name" required maxlength="${FULL_NAME_MAX}" value="${escapeHtml(view.fullName ?? '')}" autofocus${describedBy}>
<label for="password">Password (at least ${PASSWORD_MIN} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}">
<label for="password_confirmation">Password again</label>
<input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" required maxlength="${PASSWORD_MAX}">
<button type="submit">Create account</button>
</form>`,
  );
}

function renderNotice(message: string, link: { href: string; text: string }): string {
  return page(
    'Invitation',
    `<p class="lead" role="alert">${escapeHtml(message)}</p>
<a class="back" href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a>`,
  );
}

function send(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

function initialsOf(fullName: string): string {
  return fullName
    .split(/\s+/)
    .map((part) => [...part][0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

const INVALID_INVITE = 'This invitation link is not valid. Ask the sender to invite you again.';
const signInLink = (inviteId: string) => ({
  href: `/sign_in?return_to=${encodeURIComponent(afterSignUp(inviteId))}`,
  text: 'Sign in',
});

export function registerSignUpPages(app: FastifyInstance, deps: AppDeps): void {
  const db = actionDb(deps.db);

  // The invite while it can still create its account (unused, not expired), and whether its address has
  // an account already (then sign in instead).
  async function inviteOf(inviteId: string, now: Date) {
    if (inviteId === '' || inviteId.length > 64) return null;
    const invite = await db
      .selectFrom('invites')
      .selectAll()
      .where('id', '=', inviteId)
      .where('used_at', 'is', null)
      .where('created_at', '>', inviteCutoff(now, deps.config.inviteTtlDays))
      .executeTakeFirst();
    if (invite === undefined) return null;
    const account = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', invite.email.toLowerCase())
      .executeTakeFirst();
    return { invite, hasAccount: account !== undefined };
  }

  app.get('/sign_up', async (req: FastifyRequest, reply: FastifyReply) => {
    const inviteId = field(req.query, 'invite');
    const found = await inviteOf(inviteId, deps.clock());
    if (found === null)
      return send(reply, 404, renderNotice(INVALID_INVITE, { href: '/app/login', text: 'Back to Paraph' }));
    if (found.hasAccount) {
      return send(
        reply,
        200,
        renderNotice(`An account for ${found.invite.email} exists already.`, signInLink(inviteId)),
      );
    }
    return send(reply, 200, renderSignUpPage({ inviteId, email: found.invite.email }));
  });

  app.post('/sign_up', async (req: FastifyRequest, reply: FastifyReply) => {
    if (isCrossSitePost(req, deps.config)) return refuseCrossSitePost(reply);
    const inviteId = field(req.query, 'invite');
    const now = deps.clock();
    const typedName = field(req.body, 'full_name').slice(0, FULL_NAME_MAX + 1);
    const fullName = typedName.trim().replace(/\s+/g, ' ');
    const password = field(req.body, 'password');
    const confirmation = field(req.body, 'password_confirmation');

    // Limited like sign-in (per invited address and client address, and per client address), so invite
    // ids cannot be tried in bulk.
    const found = await inviteOf(inviteId, now);
    const email = found?.invite.email.toLowerCase() ?? '';
    const attempt = await beginSignInAttempt(deps.db, { email, ip: req.ip, at: now });
    const verdict = attempt.verdict;
    if (verdict.limited) {
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      return send(
        reply,
        429,
        renderNotice('Too many attempts. Please wait a few minutes and try again.', {
          href: '/app/login',
          text: 'Back to Paraph',
        }),
      );
    }
    if (found === null) {
      await finishSignInAttempt(deps.db, attempt.id, 'failed');
      return send(reply, 404, renderNotice(INVALID_INVITE, { href: '/app/login', text: 'Back to Paraph' }));
    }
    if (found.hasAccount) {
      await finishSignInAttempt(deps.db, attempt.id, 'not_counted');
      return send(reply, 409, renderNotice(`An account for ${email} exists already.`, signInLink(inviteId)));
    }
    const view = { inviteId, email, fullName: typedName };
    const problem =
      fullName === ''
        ? 'Enter your full name.'
        : fullName.length > FULL_NAME_MAX
          ? `Your name can be at most ${FULL_NAME_MAX} characters long.`
          : password.length < PASSWORD_MIN
            ? `The password needs at least ${PASSWORD_MIN} characters.`
            : password.length > PASSWORD_MAX
              ? `The password can be at most ${PASSWORD_MAX} characters long.`
              : password !== confirmation
                ? 'The two passwords are not the same.'
                : null;
    if (problem !== null) {
      await finishSignInAttempt(deps.db, attempt.id, 'not_counted');
      return send(reply, 422, renderSignUpPage({ ...view, error: problem }));
    }

    const userId = randomUUID();
    const passwordHash = await hashPassword(password);
    let outcome: 'created' | 'invite_used' | 'account_exists';
    try {
      outcome = await db.transaction().execute(async (trx) => {
        // Claimed in the account's transaction: of two sign-ups through one link, one claims it and the
        // other finds it used; an account that cannot be created leaves the link unused.
        const claimed = await trx
          .updateTable('invites')
          .set({ used_at: now.toISOString() })
          .where('id', '=', found.invite.id)
          .where('used_at', 'is', null)
          .where('created_at', '>', inviteCutoff(now, deps.config.inviteTtlDays))
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) return 'invite_used';
        await trx
          .insertInto('users')
          .values({
            id: userId,
            email,
            full_name: fullName,
            initials: initialsOf(fullName),
            password_hash: passwordHash,
            locale: 'en',
            country_code: '',
            location: '',
            welcome_screen_watched: 0,
            plan: 'basic',
            created_at: now.toISOString(),
            last_seen_at: null,
          })
          .execute();
        return 'created';
      });
    } catch (error) {
      // The same address signed up at the same moment through another link: that account stands.
      if (!isUniqueViolation(error)) throw error;
      outcome = 'account_exists';
    }
    if (outcome === 'invite_used') {
      await finishSignInAttempt(deps.db, attempt.id, 'failed');
      return send(reply, 404, renderNotice(INVALID_INVITE, { href: '/app/login', text: 'Back to Paraph' }));
    }
    if (outcome === 'account_exists') {
      await finishSignInAttempt(deps.db, attempt.id, 'not_counted');
      return send(reply, 409, renderNotice(`An account for ${email} exists already.`, signInLink(inviteId)));
    }
    await finishSignInAttempt(deps.db, attempt.id, 'succeeded');
    // Connection requests sent to this address become ordinary requests now that the account exists.
    await claimInvitations(deps.db, { id: userId, email, fullName });
    await issueDefaultSmartCard(deps.db, userId, now);
    const session = await createSession(deps.db, userId, now);
    reply.setCookie(SESSION_COOKIE, session.cookieValue, sessionCookieOptions(deps.config));
    return reply.header('cache-control', 'no-store').redirect(afterSignUp(inviteId), 303);
  });
}
