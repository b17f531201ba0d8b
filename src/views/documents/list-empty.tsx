// An empty document list says what the list would hold and offers the step that fills it: upload where
// the person's own upload would appear, the full list where documents arrive from others or from a state
// they have not reached, and clearing the search when the search is what emptied it.
import type { ReactElement } from 'react';
import { Button } from '@fluentui/react-components';
import {
  Archive20Regular,
  ArrowUpload20Regular,
  CheckmarkCircle20Regular,
  Clock20Regular,
  Dismiss20Regular,
  DocumentArrowUp20Regular,
  DocumentMultiple20Regular,
  ErrorCircle20Regular,
  Search20Regular,
  TaskListLtr20Regular,
} from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { DocumentCategory } from '../../../machines/types';
import { useModalActor } from '../../app/modal-context';
import { useOptionalShell } from '../../app/shell-context';
import type { MessageId } from '../../i18n/messages';
import { EmptyState } from '../empty-state';
import type { DocumentListActor } from './list-actor';

type NextStep = 'upload' | 'showAll';

type CategoryEmpty = { icon: ReactElement; title: MessageId; description: MessageId; next: NextStep };

// The same icons as the sidebar's entries, so the empty list looks like the place it is.
const EMPTY: Record<DocumentCategory, CategoryEmpty> = {
  active: {
    icon: <DocumentMultiple20Regular />,
    title: 'documents.empty.active',
    description: 'documents.empty.hint.active',
    next: 'upload',
  },
  to_do: {
    icon: <TaskListLtr20Regular />,
    title: 'documents.empty.to_do',
    description: 'documents.empty.hint.to_do',
    next: 'showAll',
  },
  in_progress: {
    icon: <Clock20Regular />,
    title: 'documents.empty.in_progress',
    description: 'documents.empty.hint.in_progress',
    next: 'upload',
  },
  done: {
    icon: <CheckmarkCircle20Regular />,
    title: 'documents.empty.done',
    description: 'documents.empty.hint.done',
    next: 'showAll',
  },
  failed: {
    icon: <ErrorCircle20Regular />,
    title: 'documents.empty.failed',
    description: 'documents.empty.hint.failed',
    next: 'showAll',
  },
  uploaded: {
    icon: <DocumentArrowUp20Regular />,
    title: 'documents.empty.uploaded',
    description: 'documents.empty.hint.uploaded',
    next: 'upload',
  },
  archived: {
    icon: <Archive20Regular />,
    title: 'documents.empty.archived',
    description: 'documents.empty.hint.archived',
    next: 'showAll',
  },
};

/** The sidebar's Upload, offered where the list waits for one. */
function UploadButton() {
  const intl = useIntl();
  const modal = useModalActor();
  return (
    <Button
      appearance="primary"
      icon={<ArrowUpload20Regular />}
      onClick={() => modal.send({ type: 'modal.open', name: 'documentUpload' })}
    >
      {intl.formatMessage({ id: 'documents.empty.upload' })}
    </Button>
  );
}

function ShowAllLink() {
  const intl = useIntl();
  return (
    <Link href="/documents" asChild>
      <Button as="a" icon={<DocumentMultiple20Regular />}>
        {intl.formatMessage({ id: 'documents.empty.showAll' })}
      </Button>
    </Link>
  );
}

export function ListEmpty({ list, category }: { list: DocumentListActor; category: DocumentCategory }) {
  const intl = useIntl();
  // Outside the shell (a bare list in a test) there is no modal to open: upload is not offered.
  const shell = useOptionalShell();
  const appliedSearch = useSelector(list, (snapshot) => snapshot.context.appliedSearch);
  if (appliedSearch) {
    return (
      <EmptyState
        icon={<Search20Regular />}
        title={intl.formatMessage({ id: 'documents.empty.search' }, { term: appliedSearch })}
        description={intl.formatMessage({ id: 'documents.empty.hint.search' })}
        action={
          <Button icon={<Dismiss20Regular />} onClick={() => list.send({ type: 'search.clear' })}>
            {intl.formatMessage({ id: 'documents.empty.clearSearch' })}
          </Button>
        }
      />
    );
  }
  const empty = EMPTY[category];
  return (
    <EmptyState
      icon={empty.icon}
      title={intl.formatMessage({ id: empty.title })}
      description={intl.formatMessage({ id: empty.description })}
      action={empty.next === 'showAll' ? <ShowAllLink /> : shell && <UploadButton />}
    />
  );
}
