// What a person's first tap, or the first screen's welcome, loads on demand shows as soon as its code is
// here. React holds back a suspended component's content until 300 ms after a Suspense fallback was
// shown (its reveal throttle, on a timer); outside act() that is what a browser does, so these tests run
// React as a browser does, with the timer frozen: something that suspended never appears, something that
// does not appears once its code and its data are in.
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SAMPLE_PROFILE } from '../samples';
import type { Profile } from '../../machines/types';
import { Shell } from '../../src/views/shell/shell';
import { renderView } from './render';
import { createTestShell, ShellHarness } from './shell-harness';

const NEW_USER: Profile = { ...SAMPLE_PROFILE, welcomeScreenWatched: false };
type ActGlobal = { IS_REACT_ACT_ENVIRONMENT?: boolean };

// Lets the page settle as a browser would: promises, React's scheduler (setImmediate in Node), never a
// timer, since they are frozen.
async function settle(rounds = 20): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await new Promise((done) => setImmediate(done));
}

beforeEach(() => {
  (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = false;
});
afterEach(() => {
  vi.useRealTimers();
  (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = true;
});

function renderShell(profile: Profile) {
  const shell = createTestShell({ fetchProfile: async () => profile });
  shell.getSnapshot().children.session?.send({ type: 'session.require', returnUrl: '/app/documents' });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  renderView(
    <ShellHarness shell={shell}>
      <Shell>
        <p>The list</p>
      </Shell>
    </ShellHarness>,
  );
}

describe('code loaded on first use', () => {
  it('shows the welcome screen once its code is here, not a reveal delay later', async () => {
    renderShell(NEW_USER);
    await import('../../src/views/shell/modal-host');
    await settle();
    expect(screen.getByRole('dialog', { name: 'Welcome to Paraph' })).toBeVisible();
  });

  it('opens the drawer on the first tap on the menu, and the upload modal on the next, each once its code is here', async () => {
    // jsdom's window is narrower than the sidebar's 1150 px: the menu button and the drawer.
    expect(window.innerWidth).toBeLessThan(1150);
    renderShell(SAMPLE_PROFILE);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
    // The code arrives while the page waits, as it does from the network.
    await import('../../src/views/shell/nav-drawer');
    await settle();
    const upload = screen.getByRole('button', { name: 'Upload' });
    expect(upload).toBeVisible();
    fireEvent.click(upload);
    await Promise.all([
      import('../../src/views/shell/modal-host'),
      import('../../src/views/upload/upload-modal'),
    ]);
    await settle();
    expect(screen.getByRole('dialog', { name: 'Upload a document' })).toBeVisible();
  });
});
