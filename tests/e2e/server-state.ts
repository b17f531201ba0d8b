// Where the global setup leaves the runner's mailbox folder for the teardown. Setup and teardown
// run in the one Playwright runner process, so its pid keeps two runs in one checkout apart. Also where a
// journey finds the invitation a newcomer's mailbox holds.
import path from 'node:path';
import { linksIn, mailsTo } from './mailbox.ts';

export const STATE_FILE = path.resolve(`test-results/.e2e-server-${process.pid}.json`);

/**
 * The sign-up link (a path) of the newest invitation sent to `email`, read from their mailbox on the
 * runner's SMTP server (tests/e2e/mailbox.ts): what a newcomer's mail client would show them.
 */
export function invitationLinkFor(email: string): string | null {
  for (const mail of mailsTo(email).reverse()) {
    for (const link of linksIn(mail)) {
      const url = new URL(link);
      if (url.pathname === '/sign_up' && url.searchParams.has('invite'))
        return `${url.pathname}${url.search}`;
    }
  }
  return null;
}
