// Pages that broke the server's rendering limits show a placeholder image; this says why, wherever a
// person reads the document: its page, and the sign screen before they sign it.
import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useIntl } from 'react-intl';

export function PagesUnavailable({ pages }: { pages: readonly number[] | undefined }) {
  const intl = useIntl();
  if ((pages?.length ?? 0) === 0) return null;
  return (
    <MessageBar intent="warning">
      <MessageBarBody>{intl.formatMessage({ id: 'document.viewer.pagesUnavailable' })}</MessageBarBody>
    </MessageBar>
  );
}
