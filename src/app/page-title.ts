import { useEffect } from 'react';
import { useIntl } from 'react-intl';

/** Sets the tab title; every title ends with the product suffix (spec 000 §1). */
export function usePageTitle(title: string): void {
  const intl = useIntl();
  const full = intl.formatMessage({ id: 'app.pageTitle' }, { title });
  useEffect(() => {
    document.title = full;
  }, [full]);
}
