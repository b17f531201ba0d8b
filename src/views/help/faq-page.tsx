// /app/faq: the frequently asked questions in the interface language (src/help/faq.ts), with the quick
// guide and the support address of the profile's country for what they do not answer.
import { Body1, Subtitle2, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/page-title';
import { FAQ } from '../../help/faq';
import { quickGuideUrl } from '../../app/page-links';
import { useInterfaceLocale, useSupportEmailAddress } from '../shell/help-links';

const useStyles = makeStyles({
  page: {
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    width: '100%',
    maxWidth: '720px',
  },
  list: {
    margin: 0,
    padding: 0,
    listStyle: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
  },
  entry: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  question: { margin: 0 },
  answer: { margin: 0, color: tokens.colorNeutralForeground2 },
  link: { color: tokens.colorBrandForegroundLink, overflowWrap: 'anywhere' },
});

export function FaqPage() {
  const styles = useStyles();
  const intl = useIntl();
  const locale = useInterfaceLocale();
  const email = useSupportEmailAddress();
  usePageTitle(intl.formatMessage({ id: 'help.faq.title' }));
  return (
    <div className={styles.page}>
      <Title2 as="h1">{intl.formatMessage({ id: 'help.faq.title' })}</Title2>
      <Body1 as="p">
        <FormattedMessage
          id="help.faq.intro"
          values={{
            guide: (chunks) => (
              <a
                className={styles.link}
                href={quickGuideUrl(locale)}
                hrefLang={locale}
                target="_blank"
                rel="noopener"
              >
                {chunks} {intl.formatMessage({ id: 'help.opensInNewTab' })}
              </a>
            ),
            email: (
              <a className={styles.link} href={`mailto:${email}`}>
                {email}
              </a>
            ),
          }}
        />
      </Body1>
      <ul className={styles.list}>
        {FAQ[locale].map((entry) => (
          <li key={entry.question} className={styles.entry}>
            <Subtitle2 as="h2" className={styles.question}>
              {entry.question}
            </Subtitle2>
            <Body1 as="p" className={styles.answer}>
              {entry.answer}
            </Body1>
          </li>
        ))}
      </ul>
    </div>
  );
}
