import { useIntl } from 'react-intl';
import type { DocumentAttributes } from '../../../machines/types';
import { deriveStatus, statusMessage } from './status';

/** "Ada Lovelace (you)" for the owner, else the creator's name or, without one, their e-mail. */
export function useOwnerText(): (attributes: DocumentAttributes) => string {
  const intl = useIntl();
  return (attributes) => {
    const name = attributes.creatorFullName || attributes.creatorEmailAddress;
    return attributes.isOwner ? intl.formatMessage({ id: 'documents.owner.you' }, { name }) : name;
  };
}

export function useStatusText(): (attributes: DocumentAttributes) => string {
  const intl = useIntl();
  return (attributes) => {
    const message = statusMessage(deriveStatus(attributes));
    return intl.formatMessage({ id: message.id }, message.values);
  };
}
