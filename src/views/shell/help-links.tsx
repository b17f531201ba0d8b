// The sidebar's help (spec 000 §1): the quick-guide PDF of the interface language (a new tab), the FAQ
// page, and the support address for the profile's country as a mailto link.
import { useId } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Text } from '../text';
import { DocumentPdf20Regular, Mail20Regular, QuestionCircle20Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import { useNavLinkStyles } from './nav-link-styles';
import { Link, useLocation } from 'wouter';
import { SessionContext } from '../../app/session';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../i18n/locale';
import { quickGuideUrl, supportEmailAddress } from '../../app/page-links';
import { VISUALLY_HIDDEN } from '../visually-hidden';

export const FAQ_PATH = '/faq';

const useStyles = makeStyles({
  help: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  title: {
    padding: `0 ${tokens.spacingHorizontalM}`,
    color: tokens.colorNeutralForeground3,
    fontWeight: tokens.fontWeightSemibold,
  },
  icon: { flexShrink: 0 },
  // A long address breaks rather than widening the 250 px sidebar.
  address: { minWidth: 0, overflowWrap: 'anywhere' },
  srOnly: VISUALLY_HIDDEN,
});

/** The interface language as the catalogs are shown in (IntlProvider follows the locale store). */
export function useInterfaceLocale(): Locale {
  const { locale } = useIntl();
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

export function useSupportEmailAddress(): string {
  const countryCode = SessionContext.useSelector((snapshot) => snapshot.context.profile?.countryCode ?? null);
  return supportEmailAddress(countryCode);
}

export function HelpLinks({ onNavigate }: { onNavigate?: () => void }) {
  const styles = useStyles();
  const links = useNavLinkStyles();
  const intl = useIntl();
  const locale = useInterfaceLocale();
  const email = useSupportEmailAddress();
  const [location] = useLocation();
  const isFaq = location === FAQ_PATH;
  const titleId = useId();
  return (
    <nav className={styles.help} aria-labelledby={titleId}>
      <Text id={titleId} size={200} className={styles.title}>
        {intl.formatMessage({ id: 'help.label' })}
      </Text>
      <ul className={links.list}>
        <li>
          <a
            className={links.link}
            href={quickGuideUrl(locale)}
            hrefLang={locale}
            type="application/pdf"
            target="_blank"
            rel="noopener"
          >
            <DocumentPdf20Regular aria-hidden className={styles.icon} />
            <span>
              {intl.formatMessage({ id: 'help.quickGuide' })}{' '}
              <span className={styles.srOnly}>{intl.formatMessage({ id: 'help.opensInNewTab' })}</span>
            </span>
          </a>
        </li>
        <li>
          <Link
            href={FAQ_PATH}
            className={mergeClasses(links.link, isFaq && links.active)}
            aria-current={isFaq ? 'page' : undefined}
            onClick={onNavigate}
          >
            <QuestionCircle20Regular aria-hidden className={styles.icon} />
            <span>{intl.formatMessage({ id: 'help.faq' })}</span>
          </Link>
        </li>
        <li>
          <a className={links.link} href={`mailto:${email}`}>
            <Mail20Regular aria-hidden className={styles.icon} />
            <span className={styles.address}>
              <span className={styles.srOnly}>{intl.formatMessage({ id: 'help.supportEmail' })}</span> {email}
            </span>
          </a>
        </li>
      </ul>
    </nav>
  );
}
