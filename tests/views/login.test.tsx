import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LoginPage } from '../../src/views/login/login-page';
import { renderView } from './render';

describe('login page', () => {
  it('explains a timeout and links to the server sign-in with the return URL', () => {
    renderView(<LoginPage reason="timeout" />, {
      path: '/login/timeout',
      search: 'returnUrl=%2Fapp%2Fdocument%2Fd1',
    });

    expect(screen.getByRole('heading', { level: 1, name: 'Digital document signing' })).toBeTruthy();
    expect(screen.getByText('Your session has expired')).toBeTruthy();
    const signIn = screen.getByRole('link', { name: 'Sign in' });
    const href = signIn.getAttribute('href') ?? '';
    expect(href.startsWith('/sign_in?return_to=')).toBe(true);
    const returnTo = new URLSearchParams(href.split('?')[1]).get('return_to');
    expect(returnTo).toBe('/app/auth?returnUrl=%2Fapp%2Fdocument%2Fd1');
  });

  it('lists the three features and shows no notice without a reason', () => {
    renderView(<LoginPage />, { path: '/login' });

    for (const feature of ['No paper', 'Secure', 'Easy']) {
      expect(screen.getByRole('heading', { name: feature })).toBeTruthy();
    }
    expect(screen.queryByText('Your session has expired')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Language' })).toBeTruthy();
  });
});
