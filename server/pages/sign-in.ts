// The server's sign-in page: plain HTML with no script, so it works under the strict CSP and without the
// app bundle. The app's /app/login links here with a return_to that leads back to /app/auth.
import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../context.ts';
import { verifyAgainstNothing, verifyPassword } from '../auth/passwords.ts';
import { sessionCookieOptions } from '../auth/cookies.ts';
import { isCrossSitePost, refuseCrossSitePost } from '../auth/form-origin.ts';
import { beginSignInAttempt, finishSignInAttempt } from '../auth/rate-limit.ts';
import { safeReturnTo } from '../auth/return-to.ts';
import { createSession, SESSION_COOKIE } from '../auth/tokens.ts';
import { escapeHtml, PAGE_STYLE } from './html.ts';
import { registerSignUpPages } from './sign-up.ts';

export const DEFAULT_RETURN_TO = '/app/auth';
const EMAIL_MAX = 254;
const PASSWORD_MAX = 1024;

type SignInView = {
  returnTo: string;
  email?: string;
  error?: string;
};

export function renderSignInPage(view: SignInView): string {
  const error =
    view.error === undefined
      ? ''
      : `<p class="error" role="alert" id="sign-in-error">${escapeHtml(view.error)}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Sign in · Paraph</title>
<link rel="icon" href="/app/favicon.svg" type="image/svg+xml">
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<h1>Paraph</h1>
<p class="lead">Sign in to sign documents digitally.</p>
<form method="post" action="/sign_in" novalidate>
${error}
<input type="hidden" name="return_to" value="${escapeHtml(view.returnTo)}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="${EMAIL_MAX}" value="${escapeHtml(view.email ?? '')}"${view.error === undefined ? ' autofocus' : ''}${view.error === undefined ? '' : ' aria-describedby="sign-in-error"'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX}"${view.error === undefined ? '' : ' autofocus'}>
<button type="submit">Sign in</button>
</form>
<a class="back" href="/app/login">Back to Paraph</a>
</main>
</body>
</html>
`;
}

function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

function sendPage(reply: FastifyReply, status: number, view: SignInView): FastifyReply {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(renderSignInPage(view));
}

export function registerSignInPages(app: FastifyInstance, deps: AppDeps): void {
  registerSignUpPages(app, deps);

  app.get('/sign_in', async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, unknown>;
    return sendPage(reply, 200, { returnTo: safeReturnTo(query.return_to, DEFAULT_RETURN_TO) });
  });

  app.post('/sign_in', async (req: FastifyRequest, reply: FastifyReply) => {
    if (isCrossSitePost(req, deps.config)) return refuseCrossSitePost(reply);
    const typedEmail = field(req.body, 'email').slice(0, EMAIL_MAX);
    const email = typedEmail.trim().toLowerCase();
    const password = field(req.body, 'password').slice(0, PASSWORD_MAX);
    const returnTo = safeReturnTo(field(req.body, 'return_to'), DEFAULT_RETURN_TO);
    const now = deps.clock();

    // Counted before the password is checked, so parallel attempts cannot all pass the limit.
    const attempt = await beginSignInAttempt(deps.db, { email, ip: req.ip, at: now });
    const verdict = attempt.verdict;
    if (verdict.limited) {
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      return sendPage(reply, 429, {
        returnTo,
        email: typedEmail,
        error: 'Too many sign-in attempts. Please wait a few minutes and try again.',
      });
    }

    const user =
      email === ''
        ? undefined
        : await deps.db
            .selectFrom('users')
            .select(['id', 'password_hash'])
            .where('email', '=', email)
            .executeTakeFirst();
    const isValid =
      user === undefined
        ? await verifyAgainstNothing(password)
        : await verifyPassword(password, user.password_hash);
    await finishSignInAttempt(deps.db, attempt.id, isValid ? 'succeeded' : 'failed');

    if (!isValid || user === undefined) {
      return sendPage(reply, 401, { returnTo, email: typedEmail, error: 'Wrong e-mail or password.' });
    }

    const session = await createSession(deps.db, user.id, now);
    reply.setCookie(SESSION_COOKIE, session.cookieValue, sessionCookieOptions(deps.config));
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  });
}
