// /app/verify for someone who is not signed in (a recipient without an account, from the login page or a
// link): the same page as inside the app, on the login page's backdrop, with the way to sign in and the
// language choice.
import { Text, makeStyles, tokens } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import { LanguageSelect } from '../language-select';
import { VerifyPage, type VerifyLogic } from './verify-page';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    justifyContent: 'center',
    alignItems: 'flex-start',
    padding: tokens.spacingHorizontalL,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground2,
    '@media (max-width: 767px)': { padding: tokens.spacingHorizontalS },
  },
  card: {
    width: '100%',
    maxWidth: '920px',
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
  top: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  brand: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  link: {
    color: tokens.colorBrandForegroundLink,
    minHeight: '24px',
    display: 'inline-flex',
    alignItems: 'center',
  },
  language: { maxWidth: '220px' },
});

export function PublicVerifyPage({ logic }: { logic: VerifyLogic }) {
  const styles = useStyles();
  const intl = useIntl();
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <div className={styles.top}>
          <Text className={styles.brand} size={500}>
            {intl.formatMessage({ id: 'app.name' })}
          </Text>
          <Link href="/login" className={styles.link}>
            {intl.formatMessage({ id: 'verify.signIn' })}
          </Link>
        </div>
        <VerifyPage logic={logic} />
        <div className={styles.language}>
          <LanguageSelect />
        </div>
      </div>
    </main>
  );
}
