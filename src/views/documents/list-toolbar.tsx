import { Button, Field, Input, Select, makeStyles, tokens } from '@fluentui/react-components';
import { Dismiss20Regular, Search20Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
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

export function ListToolbar({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const search = useSelector(list, (snapshot) => snapshot.context.search);
  const direction = useSelector(list, (snapshot) => snapshot.context.sort.direction);

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
        <Field label={intl.formatMessage({ id: 'documents.search.label' })} className={styles.searchField}>
          <Input
            type="search"
            className={styles.input}
            value={search}
            placeholder={intl.formatMessage({ id: 'documents.search.placeholder' })}
            onChange={(_event, data) => list.send({ type: 'search.changed', term: data.value })}
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
        </Field>
        <Button type="submit" className={styles.button} icon={<Search20Regular />}>
          {intl.formatMessage({ id: 'documents.search.submit' })}
        </Button>
      </form>
      <Field label={intl.formatMessage({ id: 'documents.sort.label' })} className={styles.sort}>
        <Select
          className={styles.select}
          value={direction}
          onChange={(_event, data) =>
            list.send({ type: 'sort.changed', direction: data.value === 'asc' ? 'asc' : 'desc' })
          }
        >
          <option value="desc">{intl.formatMessage({ id: 'documents.sort.newest' })}</option>
          <option value="asc">{intl.formatMessage({ id: 'documents.sort.oldest' })}</option>
        </Select>
      </Field>
    </div>
  );
}
