import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT_EMAIL_NL, DEFAULT_SUPPORT_EMAIL_UK } from '../../src/services/help';
import { HelpLinks } from '../../src/views/shell/help-links';
import { Sidebar } from '../../src/views/shell/sidebar';
import {
  addSupportMeta,
  NL_ADDRESS,
  removeSupportMeta,
  renderHelp,
  UK_ADDRESS,
  waitForProfile,
} from './help-render';

afterEach(removeSupportMeta);

describe("the sidebar's help", () => {
  it.each([
    ['en', /^Quick guide \(PDF\) \(opens in a new tab\)$/],
    ['es', /^Guía rápida \(PDF\) \(se abre en una pestaña nueva\)$/],
    ['fr', /^Guide rapide \(PDF\) \(s’ouvre dans un nouvel onglet\)$/],
  ] as const)('links the %s quick guide, a PDF in a new tab', (locale, name) => {
    renderHelp(<HelpLinks />, { locale });
    const guide = screen.getByRole('link', { name });
    expect(guide.getAttribute('href')).toMatch(new RegExp(`/help/quick-guide-${locale}\\.pdf$`));
    expect(guide.getAttribute('target')).toBe('_blank');
    expect(guide.getAttribute('rel')).toBe('noopener');
    expect(guide.getAttribute('type')).toBe('application/pdf');
  });

  it('opens the FAQ page inside the app and marks it current there', async () => {
    const { location } = renderHelp(<HelpLinks />);
    const faq = screen.getByRole('link', { name: 'Frequently asked questions' });
    expect(faq.getAttribute('aria-current')).toBeNull();
    await userEvent.click(faq);
    expect(location.history?.at(-1)).toBe('/faq');
    await waitFor(() => expect(faq.getAttribute('aria-current')).toBe('page'));
  });

  it('writes to the UK address of the page for a profile of country uk', async () => {
    addSupportMeta();
    renderHelp(<HelpLinks />, { countryCode: 'uk' });
    const support = await screen.findByRole('link', { name: `E-mail support: ${UK_ADDRESS}` });
    expect(support.getAttribute('href')).toBe(`mailto:${UK_ADDRESS}`);
    expect(support.textContent).toContain(UK_ADDRESS);
  });

  it.each(['nl', 'de', 'be', ''])('writes to the NL address for country "%s"', async (countryCode) => {
    addSupportMeta();
    renderHelp(<HelpLinks />, { countryCode });
    await waitForProfile();
    const support = screen.getByRole('link', { name: `E-mail support: ${NL_ADDRESS}` });
    expect(support.getAttribute('href')).toBe(`mailto:${NL_ADDRESS}`);
    expect(screen.queryByText(UK_ADDRESS)).toBeNull();
  });

  it('reads the country without case, and takes GB (ISO 3166) for the UK', async () => {
    addSupportMeta();
    renderHelp(<HelpLinks />, { countryCode: 'GB' });
    const support = await screen.findByRole('link', { name: `E-mail support: ${UK_ADDRESS}` });
    expect(support.getAttribute('href')).toBe(`mailto:${UK_ADDRESS}`);
  });

  it('uses the default address without the meta tags (the dev server)', async () => {
    renderHelp(<HelpLinks />, { countryCode: 'uk' });
    const support = await screen.findByRole('link', { name: `E-mail support: ${DEFAULT_SUPPORT_EMAIL_UK}` });
    expect(support.getAttribute('href')).toBe(`mailto:${DEFAULT_SUPPORT_EMAIL_UK}`);
  });

  it('ignores a meta tag that is not a plain e-mail address', async () => {
    addSupportMeta(UK_ADDRESS, 'a@b.nl?cc=someone@else.example');
    renderHelp(<HelpLinks />, { countryCode: 'nl' });
    await waitForProfile();
    const support = screen.getByRole('link', { name: `E-mail support: ${DEFAULT_SUPPORT_EMAIL_NL}` });
    expect(support.getAttribute('href')).toBe(`mailto:${DEFAULT_SUPPORT_EMAIL_NL}`);
  });

  it('is in the sidebar, in a navigation region of its own', () => {
    renderHelp(<Sidebar showUserMenu={false} />);
    const help = screen.getByRole('navigation', { name: 'Help' });
    expect(help.querySelectorAll('a')).toHaveLength(3);
    expect(help.contains(screen.getByRole('link', { name: /^Quick guide \(PDF\)/ }))).toBe(true);
  });
});
