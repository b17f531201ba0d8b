import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FAQ } from '../../src/help/faq';
import { FaqPage } from '../../src/views/help/faq-page';
import { addSupportMeta, removeSupportMeta, renderHelp, UK_ADDRESS } from './help-render';

afterEach(removeSupportMeta);

const PAGES = [
  { locale: 'en', title: 'Frequently asked questions', question: 'How do I confirm my signature?' },
  { locale: 'es', title: 'Preguntas frecuentes', question: '¿Cómo confirmo mi firma?' },
  { locale: 'fr', title: 'Questions fréquentes', question: 'Comment confirmer ma signature ?' },
] as const;

describe('the FAQ page', () => {
  it('has the same questions in every language, 8 to 12 of them, none empty', () => {
    const count = FAQ.en.length;
    expect(count).toBeGreaterThanOrEqual(8);
    expect(count).toBeLessThanOrEqual(12);
    for (const locale of ['en', 'es', 'fr'] as const) {
      expect(FAQ[locale], locale).toHaveLength(count);
      for (const entry of FAQ[locale]) {
        expect(entry.question.trim(), locale).not.toBe('');
        expect(entry.answer.length, entry.question).toBeGreaterThan(60);
      }
      expect(new Set(FAQ[locale].map((entry) => entry.question)).size, locale).toBe(count);
    }
    // Translated, not copied: no Spanish or French question is the English one.
    FAQ.en.forEach((entry, index) => {
      expect(FAQ.es[index]?.question).not.toBe(entry.question);
      expect(FAQ.fr[index]?.question).not.toBe(entry.question);
    });
  });

  it.each(PAGES)(
    'shows every question and answer in $locale, with the page title',
    async ({ locale, title, question }) => {
      renderHelp(<FaqPage />, { locale, path: '/faq' });
      expect(screen.getByRole('heading', { level: 1, name: title })).toBeVisible();
      const questions = screen.getAllByRole('heading', { level: 2 });
      expect(questions.map((heading) => heading.textContent)).toEqual(
        FAQ[locale].map((entry) => entry.question),
      );
      expect(screen.getByRole('heading', { level: 2, name: question })).toBeVisible();
      const first = FAQ[locale][0];
      if (!first) throw new Error(`no FAQ in ${locale}`);
      expect(screen.getByText(first.answer)).toBeVisible();
      await waitFor(() => expect(document.title).toBe(`${title} · Paraph`));
    },
  );

  it("links the language's quick guide and the support address of the profile's country", async () => {
    addSupportMeta();
    renderHelp(<FaqPage />, { locale: 'fr', countryCode: 'uk', path: '/faq' });
    const guide = screen.getByRole('link', { name: /guide rapide \(PDF\)/ });
    expect(guide.getAttribute('href')).toMatch(/\/help\/quick-guide-fr\.pdf$/);
    expect(guide.getAttribute('target')).toBe('_blank');
    const intro = guide.closest('p');
    expect(intro).not.toBeNull();
    const support = await within(intro as HTMLElement).findByRole('link', { name: UK_ADDRESS });
    expect(support.getAttribute('href')).toBe(`mailto:${UK_ADDRESS}`);
  });
});
