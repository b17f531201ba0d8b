import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { Dismiss20Regular, Search20Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ListSort } from '../../../machines/types';
import { FieldFrame } from '../field-frame';
import { NativeInput } from '../native-input';
import { NativeSelect } from '../native-select';
import type { DocumentListActor } from './list-actor';

const useStyles = makeStyles({
  toolbar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    gap: tokens.spacingHorizontalM,
  },
  search: {
    display: 'flex',
    alignItems: 'flex-end',
    gap: tokens.spacingHorizontalS,
    flex: '1 1 280px',
    minWidth: 0,
  },
  searchField: { flex: '1 1 auto', minWidth: 0 },
  input: { width: '100%', minHeight: '40px' },
  button: { minHeight: '40px', minWidth: '40px' },
  sort: { flex: '0 1 200px', minWidth: '160px' },
  select: { minHeight: '40px' },
});

// Spec 000 §2: newest or oldest first; "Deletion date" (the earliest first) only while the list shows the
// auto-deletion column (meta.showAutodeleteDate).
const SORTS = {
  newest: { column: 'created_at', direction: 'desc' },
  oldest: { column: 'created_at', direction: 'asc' },
  autodeletion_at: { column: 'autodeletion_at', direction: 'asc' },
} as const satisfies Record<string, ListSort>;

type SortValue = keyof typeof SORTS;

function toSortValue(value: string): SortValue {
  return value === 'oldest' || value === 'autodeletion_at' ? value : 'newest';
}

export function ListToolbar({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const search = useSelector(list, (snapshot) => snapshot.context.search);
  const sort = useSelector(list, (snapshot) => snapshot.context.sort);
  const showAutodelete = useSelector(list, (snapshot) => snapshot.context.meta?.showAutodeleteDate ?? false);
  const sortValue: SortValue =
    sort.column === 'autodeletion_at' ? 'autodeletion_at' : sort.direction === 'asc' ? 'oldest' : 'newest';

  return (
    <div className={styles.toolbar}>
      <form
        role="search"
        className={styles.search}
        onSubmit={(event) => {
          event.preventDefault();
          list.send({ type: 'search.submit' });
        }}
      >
        <FieldFrame
          label={intl.formatMessage({ id: 'documents.search.label' })}
          className={styles.searchField}
        >
          {(control) => (
            // A text field in the search role: a type="search" field gets the browser's own clear button
            // beside the app's labelled one. Phones still show a search key.
            <NativeInput
              {...control}
              type="text"
              role="searchbox"
              inputMode="search"
              enterKeyHint="search"
              className={styles.input}
              value={search}
              placeholder={intl.formatMessage({ id: 'documents.search.placeholder' })}
              onChange={(term) => list.send({ type: 'search.changed', term })}
              contentAfter={
                search ? (
                  <Button
                    appearance="transparent"
                    size="small"
                    icon={<Dismiss20Regular />}
                    aria-label={intl.formatMessage({ id: 'documents.search.clear' })}
                    onClick={() => list.send({ type: 'search.clear' })}
                  />
                ) : undefined
              }
            />
          )}
        </FieldFrame>
        <Button type="submit" className={styles.button} icon={<Search20Regular />}>
          {intl.formatMessage({ id: 'documents.search.submit' })}
        </Button>
      </form>
      <FieldFrame label={intl.formatMessage({ id: 'documents.sort.label' })} className={styles.sort}>
        {(control) => (
          <NativeSelect
            {...control}
            className={styles.select}
            value={sortValue}
            onChange={(chosen) => list.send({ type: 'sort.changed', ...SORTS[toSortValue(chosen)] })}
          >
            <option value="newest">{intl.formatMessage({ id: 'documents.sort.newest' })}</option>
            <option value="oldest">{intl.formatMessage({ id: 'documents.sort.oldest' })}</option>
            {(showAutodelete || sortValue === 'autodeletion_at') && (
              <option value="autodeletion_at">{intl.formatMessage({ id: 'documents.sort.deletion' })}</option>
            )}
          </NativeSelect>
        )}
      </FieldFrame>
    </div>
  );
}
