// /app/releases (spec 001 §2 "Release notes"): every version of the changelog, newest first, with its date
// and its changes in the interface language. Reached from the version label in the sidebar.
import { Subtitle1, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import { usePageTitle } from '../../app/page-title';
import { DEFAULT_LOCALE, isLocale } from '../../i18n/locale';
import { CHANGELOG } from '../../releases/changelog';
import { formatReleaseDate } from '../format';

const useStyles = makeStyles({
  page: {
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXL,
    width: '100%',
    maxWidth: '720px',
  },
  release: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  heading: { margin: 0 },
  date: { color: tokens.colorNeutralForeground3 },
  changes: {
    margin: `${tokens.spacingVerticalS} 0 0`,
    paddingLeft: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    lineHeight: tokens.lineHeightBase300,
  },
});

export function ReleasesPage() {
  const styles = useStyles();
  const intl = useIntl();
  const title = intl.formatMessage({ id: 'releases.title' });
  usePageTitle(title);
  const locale = isLocale(intl.locale) ? intl.locale : DEFAULT_LOCALE;
  return (
    <div className={styles.page}>
      <Title2 as="h1">{title}</Title2>
      {CHANGELOG.map((release) => {
        const headingId = `release-${release.version}`;
        return (
          <section key={release.version} className={styles.release} aria-labelledby={headingId}>
            <Subtitle1 as="h2" id={headingId} className={styles.heading}>
              {release.version}
            </Subtitle1>
            <Text size={200} className={styles.date}>
              <time dateTime={release.date}>{formatReleaseDate(intl, release.date)}</time>
            </Text>
            <ul className={styles.changes}>
              {release.changes.map((change) => (
                <li key={change.en}>{change[locale]}</li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
