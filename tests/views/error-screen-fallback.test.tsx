// The error screen's code loads only after a crash (src/app/error-boundary.tsx). When it cannot load
// either (the network that broke the screen may be gone), a plain alert with a reload stands in, in the
// page's language, so a crash never leaves a blank page.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary, type ErrorScreenLoader } from '../../src/app/error-boundary';
import { loader } from '../../src/views/preloaded-lazy';
import { renderView } from './render';

// The error screen's code, as a browser fails to import it once the network is gone.
const unreachableErrorScreen: ErrorScreenLoader = loader(() =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
);

function Crashing(): never {
  throw new Error('the document screen broke');
}

describe('the error screen when its code cannot load', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows a plain alert with the heading, the message and a working reload', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    renderView(
      <ErrorBoundary loadScreen={unreachableErrorScreen}>
        <Crashing />
      </ErrorBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
    expect(alert.textContent).toContain('An error has occurred. Please try again in a few moments.');
    // Nothing to send the report with: only the reload is offered.
    expect(within(alert).queryByRole('button', { name: 'Send report' })).toBeNull();
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Reload the page' }));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith('The error screen could not be loaded', expect.any(Error));
  });
});
