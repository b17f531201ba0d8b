// The release notes: the changelog's rules, the page (/app/releases) in each language, its date format
// (MMM d yyyy, spec 001 §2) and the sidebar's version label that opens it.
import type { ReactElement, ReactNode } from 'react';
import { IdPrefixProvider } from '@fluentui/react-components';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createIntl } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { BaseProviders } from '../../src/app/providers';
import { APP_VERSION } from '../../src/app/version';
import { LOCALES, type Locale } from '../../src/i18n/locale';
import type { Catalog } from '../../src/i18n/messages';
import { CHANGELOG } from '../../src/releases/changelog';
import { formatReleaseDate } from '../../src/views/format';
import { ReleasesPage } from '../../src/views/releases/releases-page';
import { Sidebar } from '../../src/views/shell/sidebar';
import en from '../../src/i18n/en.json';
import es from '../../src/i18n/es.json';
import fr from '../../src/i18n/fr.json';
import { version as packageVersion } from '../../package.json';
import { createTestShell, ShellHarness } from './shell-harness';

const CATALOGS: Record<Locale, Catalog> = { en, es, fr };

let renders = 0;

function renderIn(locale: Locale, ui: ReactElement, path = '/releases') {
  const location = memoryLocation({ path, record: true });
  renders += 1;
  const prefix = `releases-${renders}-`;
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <IdPrefixProvider value={prefix}>
      <BaseProviders locale={locale} messages={CATALOGS[locale]}>
        <Router hook={location.hook}>{children}</Router>
      </BaseProviders>
    </IdPrefixProvider>
  );
  render(ui, { wrapper: Wrapper });
  return location;
}

function versionNumbers(version: string): number[] {
  const match = /^v(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!match) throw new Error(`${version} is not v<major>.<minor>.<patch>`);
  return match.slice(1).map(Number);
}

/** Negative when a is older than b. */
function compareVersions(a: string, b: string): number {
  const [left, right] = [versionNumbers(a), versionNumbers(b)];
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

describe('the changelog', () => {
  it('starts with the version package.json gives the app', () => {
    expect(APP_VERSION).toBe(`v${packageVersion}`);
    expect(CHANGELOG[0]?.version).toBe(APP_VERSION);
  });

  it('runs from v2.23.0 to v2.34.1, the latest dated 2020-06-17 (spec 001 §2)', () => {
    expect(CHANGELOG[0]).toMatchObject({ version: 'v2.34.1', date: '2020-06-17' });
    expect(CHANGELOG.at(-1)?.version).toBe('v2.23.0');
  });

  it('leaves out no minor version in between', () => {
    const minors = new Set(CHANGELOG.map((release) => versionNumbers(release.version)[1]));
    for (let minor = 23; minor <= 34; minor += 1) expect(minors.has(minor), `v2.${minor}`).toBe(true);
    for (const release of CHANGELOG) expect(versionNumbers(release.version)[0], release.version).toBe(2);
  });

  it('lists versions newest first, each once, with dates that never go forward', () => {
    for (let index = 1; index < CHANGELOG.length; index += 1) {
      const [newer, older] = [CHANGELOG[index - 1], CHANGELOG[index]];
      if (!newer || !older) throw new Error('missing release');
      expect(
        compareVersions(newer.version, older.version),
        `${newer.version} before ${older.version}`,
      ).toBeGreaterThan(0);
      expect(newer.date >= older.date, `${newer.version}'s date`).toBe(true);
    }
  });

  it('dates every release as a real ISO day', () => {
    for (const release of CHANGELOG) {
      expect(release.date, release.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(new Date(`${release.date}T00:00:00Z`).toISOString().slice(0, 10), release.version).toBe(
        release.date,
      );
    }
  });

  it('writes every change in en, es and fr', () => {
    for (const release of CHANGELOG) {
      expect(release.changes.length, release.version).toBeGreaterThan(0);
      for (const change of release.changes) {
        expect(Object.keys(change).sort(), change.en).toEqual([...LOCALES].sort());
        for (const locale of LOCALES)
          expect(change[locale].trim(), `${release.version} ${locale}`).not.toBe('');
        // A change copied from English into another language was not translated.
        expect(change.es, change.en).not.toBe(change.en);
        expect(change.fr, change.en).not.toBe(change.en);
      }
    }
  });

  it('says that lists show 20 documents per page (spec 001 §2)', () => {
    const notes = CHANGELOG.flatMap((release) => release.changes.map((change) => change.en));
    expect(notes.filter((note) => note.includes('20 documents per page'))).toHaveLength(1);
  });
});

describe('release dates', () => {
  const intlOf = (locale: Locale) => createIntl({ locale, messages: CATALOGS[locale] });

  it.each([
    ['en', '2026-11-21', 'Nov 21 2026'],
    ['es', '2026-11-21', 'nov 21 2026'],
    ['fr', '2026-11-21', 'nov. 21 2026'],
    ['en', '2020-06-17', 'Jun 17 2020'],
    ['fr', '2020-06-17', 'juin 17 2020'],
    ['es', '2027-01-01', 'ene 1 2027'],
  ] as const)(
    'in %s, %s reads %s (MMM d yyyy, the day never shifted by a time zone)',
    (locale, date, text) => {
      expect(formatReleaseDate(intlOf(locale), date)).toBe(text);
    },
  );

  it('shows nothing for a date that is not a day', () => {
    expect(formatReleaseDate(intlOf('en'), '2026-13-45')).toBe('');
    expect(formatReleaseDate(intlOf('en'), 'soon')).toBe('');
  });
});

describe('the release notes page', () => {
  it('shows every release, newest first, with its date and changes', () => {
    renderIn('en', <ReleasesPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Release notes' })).toBeVisible();
    const versions = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(versions).toEqual(CHANGELOG.map((release) => release.version));
    const latest = screen.getByRole('region', { name: 'v2.34.1' });
    expect(within(latest).getByText('Jun 17 2020').getAttribute('datetime')).toBe('2020-06-17');
    const items = within(latest)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual(CHANGELOG[0]?.changes.map((change) => change.en));
    expect(document.title).toBe('Release notes · Paraph');
  });

  it.each([
    ['es', 'Notas de la versión', 'ago 6 2019'],
    ['fr', 'Notes de version', 'août 6 2019'],
  ] as const)('reads in %s', (locale, title, date) => {
    renderIn(locale, <ReleasesPage />);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const foundation = screen.getByRole('region', { name: 'v2.23.0' });
    expect(within(foundation).getByText(date)).toBeVisible();
    const first = CHANGELOG.at(-1)?.changes[0];
    expect(within(foundation).getByText(first?.[locale] ?? 'missing')).toBeVisible();
    expect(within(foundation).queryByText(first?.en ?? 'missing')).toBeNull();
    expect(document.title).toBe(`${title} · Paraph`);
  });
});

describe('the version label', () => {
  function renderSidebar(path: string, onNavigate?: () => void) {
    return renderIn(
      'en',
      <ShellHarness shell={createTestShell({ storedToken: null })}>
        <Sidebar showUserMenu={false} {...(onNavigate ? { onNavigate } : {})} />
      </ShellHarness>,
      path,
    );
  }

  it('shows the version and opens the release notes', async () => {
    const onNavigate = vi.fn();
    const location = renderSidebar('/documents', onNavigate);
    const link = screen.getByRole('link', { name: `Release notes, version ${APP_VERSION}` });
    expect(link.textContent).toBe('v2.34.1');
    expect(link.getAttribute('aria-current')).toBeNull();
    await userEvent.setup().click(link);
    expect(location.history?.at(-1)).toBe('/releases');
    expect(onNavigate).toHaveBeenCalledTimes(1);
  });

  it('is the current page on the release notes', () => {
    renderSidebar('/releases');
    const link = screen.getByRole('link', { name: `Release notes, version ${APP_VERSION}` });
    expect(link.getAttribute('aria-current')).toBe('page');
  });
});
