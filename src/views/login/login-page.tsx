// The public landing page (spec 001 §2 "Login"): what Paraph is, the link to the server's sign-in
// page, and a notice explaining why the user is here (session expired, error, no account, the last with a
// link to the products page).
import {
  Button,
  Link,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Subtitle2,
  Text,
  Title1,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import { Link as RouteLink, useSearch } from 'wouter';
import { usePageTitle } from '../../app/page-title';
import type { MessageId } from '../../i18n/messages';
import { productsUrl, signInHref } from '../../app/page-links';
import { LanguageSelect } from '../language-select';

export type LoginReason = 'timeout' | 'error' | 'no-product';

const NOTICES: Record<LoginReason, { intent: 'info' | 'error'; title: MessageId; text: MessageId }> = {
  timeout: { intent: 'info', title: 'login.notice.timeout.title', text: 'login.notice.timeout.text' },
  error: { intent: 'error', title: 'login.notice.error.title', text: 'login.notice.error.text' },
  'no-product': {
    intent: 'info',
    title: 'login.notice.noProduct.title',
    text: 'login.notice.noProduct.text',
  },
};

function isLoginReason(value: string | undefined): value is LoginReason {
  return value !== undefined && value in NOTICES;
}

const FEATURES: { title: MessageId; text: MessageId }[] = [
  { title: 'login.feature.noPaper.title', text: 'login.feature.noPaper.text' },
  { title: 'login.feature.secure.title', text: 'login.feature.secure.text' },
  { title: 'login.feature.easy.title', text: 'login.feature.easy.text' },
];

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: tokens.spacingHorizontalL,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  card: {
    width: '100%',
    maxWidth: '560px',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXXL}`,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow8,
    '@media (max-width: 767px)': { padding: tokens.spacingHorizontalL },
  },
  brand: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  features: { margin: 0, padding: 0, listStyle: 'none', display: 'grid', gap: tokens.spacingVerticalM },
  feature: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  signIn: { minHeight: '40px', alignSelf: 'flex-start' },
  language: { maxWidth: '220px' },
  verify: {
    alignSelf: 'flex-start',
    minHeight: '24px',
    color: tokens.colorBrandForegroundLink,
    ':hover': { color: tokens.colorBrandForegroundLinkHover },
  },
});

export function LoginPage({ reason }: { reason?: string | undefined }) {
  const styles = useStyles();
  const intl = useIntl();
  const search = useSearch();
  const returnUrl = new URLSearchParams(search).get('returnUrl');
  const notice = isLoginReason(reason) ? NOTICES[reason] : null;
  usePageTitle(intl.formatMessage({ id: 'login.pageTitle' }));

  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <Text className={styles.brand} size={500}>
          {intl.formatMessage({ id: 'app.name' })}
        </Text>
        <Title1 as="h1">{intl.formatMessage({ id: 'login.title' })}</Title1>
        <Text>{intl.formatMessage({ id: 'login.subtitle' })}</Text>
        {notice && (
          <MessageBar intent={notice.intent} layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>{intl.formatMessage({ id: notice.title })}</MessageBarTitle>
              {intl.formatMessage(
                { id: notice.text },
                // Only the no-product text has a <link>: the products page (a server setting).
                {
                  link: (chunks) => (
                    <Link inline href={productsUrl()}>
                      {chunks}
                    </Link>
                  ),
                },
              )}
            </MessageBarBody>
          </MessageBar>
        )}
        <ul className={styles.features} aria-label={intl.formatMessage({ id: 'login.features.label' })}>
          {FEATURES.map((feature) => (
            <li key={feature.title} className={styles.feature}>
              <Subtitle2 as="h2">{intl.formatMessage({ id: feature.title })}</Subtitle2>
              <Text>{intl.formatMessage({ id: feature.text })}</Text>
            </li>
          ))}
        </ul>
        <Button
          as="a"
          appearance="primary"
          size="large"
          className={styles.signIn}
          href={signInHref(returnUrl)}
        >
          {intl.formatMessage({ id: 'login.signIn' })}
        </Button>
        <RouteLink href="/verify" className={styles.verify}>
          {intl.formatMessage({ id: 'login.verify' })}
        </RouteLink>
        <div className={styles.language}>
          <LanguageSelect />
        </div>
      </div>
    </main>
  );
}
