// The list as a table from 768 px: a plain click selects one row, Ctrl/Cmd-click or the checkbox
// toggles, select-all from 960 px (spec 000 §2 "Selection"). Selection lives in the machine.
import { useId, type KeyboardEvent, type MouseEvent } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { formatDateTime, truncateName } from '../format';
import { NativeCheckbox } from '../native-checkbox';
import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '../native-table';
import { useOwnerText, useStatusText } from './document-text';
import { DOCUMENT_ROW_DELAY_MS, rowEntranceDelay, useRowEntranceStyles } from '../row-entrance';
import type { DocumentListActor } from './list-actor';
import { RowActions } from './row-actions';

const useStyles = makeStyles({
  // Automatic layout with a floor under the name: beside the sidebar and the details panel the table may
  // have only ~450 px, and the name (what people look for) must never be the column that gives way.
  table: { width: '100%', tableLayout: 'auto' },
  selectColumn: { width: '44px' },
  actionsColumn: { width: '48px' },
  selectCell: { textAlign: 'center', whiteSpace: 'nowrap', padding: 0 },
  nameColumn: { minWidth: '140px' },
  // Long words in a narrow space (a language's longer headers, a large text size) scroll the table
  // sideways instead of pushing it under the details panel.
  scroller: { overflowX: 'auto', minWidth: 0 },
  row: {
    cursor: 'pointer',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  // break-word, not anywhere: 'anywhere' lets the column shrink to one character per line.
  wrap: { overflowWrap: 'break-word' },
  // A date breaks only at its comma ("Nov 21 2026," / "06:56"), never word by word (DateTimeText).
  nowrap: { whiteSpace: 'nowrap' },
  secondary: {
    display: 'block',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
  },
});

/**
 * A date and time that wraps only after the date's comma: the date, then the time on the next line when the
 * column is narrow. Both date columns are then as narrow as a date, which leaves the status its room.
 */
function DateTimeText({ text, className }: { text: string; className: string }) {
  const comma = text.lastIndexOf(', ');
  if (comma < 0) return <span className={className}>{text}</span>;
  return (
    <>
      <span className={className}>{text.slice(0, comma + 1)}</span>{' '}
      <span className={className}>{text.slice(comma + 2)}</span>
    </>
  );
}

/**
 * A checkbox cell like Fluent's TableSelectionCell, which also bundles the radio indicator the list
 * never uses onto the first screen's path. A click anywhere in the cell is the checkbox's.
 */
function SelectionCell({
  checked,
  label,
  onClick,
}: {
  checked: boolean | 'mixed';
  label: string;
  onClick: (event: MouseEvent) => void;
}) {
  const styles = useStyles();
  return (
    <TableCell className={mergeClasses(styles.selectColumn, styles.selectCell)} onClick={onClick}>
      <NativeCheckbox checked={checked} aria-label={label} />
    </TableCell>
  );
}

function isToggleClick(event: MouseEvent | KeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey;
}

export function DocumentTable({
  list,
  showSelectAll,
  showOwnerColumn,
}: {
  list: DocumentListActor;
  showSelectAll: boolean;
  showOwnerColumn: boolean;
}) {
  const styles = useStyles();
  const entrance = useRowEntranceStyles();
  const intl = useIntl();
  const ownerText = useOwnerText();
  const statusText = useStatusText();
  const statusIdPrefix = useId();
  const documents = useSelector(list, (snapshot) => snapshot.context.documents);
  const selectedIds = useSelector(list, (snapshot) => snapshot.context.selectedIds);
  // Spec 000 §2: the full table is from 960 px. On tablets the uploaded date and the owner move under the
  // name, so that beside the 280 px details panel no column is squeezed to a word per line.
  const isCompact = !showSelectAll;
  // From 960 px the owner has a column only where there is room for it (OWNER_COLUMN_QUERY); below
  // that it is the name's second line, as on tablets.
  const hasOwnerColumn = !isCompact && showOwnerColumn;
  // The optional column needs the full table's width (960 px and up).
  const showAutodelete =
    useSelector(list, (snapshot) => snapshot.context.meta?.showAutodeleteDate ?? false) && showSelectAll;
  const isBusy = useSelector(list, (snapshot) => snapshot.hasTag('busy'));

  const selected = new Set(selectedIds);
  const allSelected = documents.length > 0 && documents.every((document) => selected.has(document.id));
  const someSelected = !allSelected && documents.some((document) => selected.has(document.id));

  return (
    <div className={styles.scroller}>
      <Table
        className={styles.table}
        role="grid"
        aria-multiselectable
        aria-label={intl.formatMessage({ id: 'documents.list.label' })}
        aria-busy={isBusy}
      >
        <TableHeader>
          <TableRow isHeaderRow>
            {showSelectAll ? (
              <SelectionCell
                checked={allSelected ? true : someSelected ? 'mixed' : false}
                label={intl.formatMessage({ id: 'documents.selectAll' })}
                onClick={() => list.send({ type: allSelected ? 'selection.none' : 'selection.all' })}
              />
            ) : (
              <TableHeaderCell className={styles.selectColumn} aria-hidden />
            )}
            <TableHeaderCell className={styles.nameColumn}>
              {intl.formatMessage({ id: 'documents.column.name' })}
            </TableHeaderCell>
            <TableHeaderCell>{intl.formatMessage({ id: 'documents.column.status' })}</TableHeaderCell>
            {!isCompact && (
              <TableHeaderCell>{intl.formatMessage({ id: 'documents.column.uploaded' })}</TableHeaderCell>
            )}
            {showAutodelete && (
              <TableHeaderCell>{intl.formatMessage({ id: 'documents.column.autodeletion' })}</TableHeaderCell>
            )}
            {hasOwnerColumn && (
              <TableHeaderCell>{intl.formatMessage({ id: 'documents.column.owner' })}</TableHeaderCell>
            )}
            <TableHeaderCell
              className={styles.actionsColumn}
              aria-label={intl.formatMessage({ id: 'documents.actions.column' })}
            />
          </TableRow>
        </TableHeader>
        <TableBody>
          {documents.map((document, index) => {
            const { attributes } = document;
            const isSelected = selected.has(document.id);
            const statusId = `${statusIdPrefix}-status-${document.id}`;
            return (
              <TableRow
                key={document.id}
                className={mergeClasses(styles.row, entrance.enter)}
                style={rowEntranceDelay(index, DOCUMENT_ROW_DELAY_MS)}
                aria-selected={isSelected}
                // A focused row is read by its name, then its status in words.
                aria-describedby={statusId}
                appearance={isSelected ? 'brand' : 'none'}
                tabIndex={0}
                onClick={(event) =>
                  list.send({ type: 'row.click', id: document.id, toggle: isToggleClick(event) })
                }
                onKeyDown={(event) => {
                  if (event.target !== event.currentTarget) return;
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    list.send({
                      type: 'row.click',
                      id: document.id,
                      toggle: isToggleClick(event) || event.key === ' ',
                    });
                  }
                }}
              >
                <SelectionCell
                  checked={isSelected}
                  label={intl.formatMessage(
                    { id: 'documents.selectRow' },
                    { name: attributes.originalFilename },
                  )}
                  onClick={(event) => {
                    event.stopPropagation();
                    list.send({ type: 'row.checkbox', id: document.id });
                  }}
                />
                <TableCell className={styles.wrap}>
                  <span title={attributes.originalFilename}>{truncateName(attributes.originalFilename)}</span>
                  {!hasOwnerColumn && (
                    <span className={styles.secondary}>
                      {isCompact && `${formatDateTime(intl, attributes.createdAt)} · `}
                      {ownerText(attributes)}
                    </span>
                  )}
                </TableCell>
                <TableCell id={statusId} className={styles.wrap}>
                  {statusText(attributes)}
                </TableCell>
                {!isCompact && (
                  <TableCell>
                    <DateTimeText
                      text={formatDateTime(intl, attributes.createdAt)}
                      className={styles.nowrap}
                    />
                  </TableCell>
                )}
                {showAutodelete && (
                  <TableCell>
                    {attributes.autodeletionAt ? (
                      <DateTimeText
                        text={formatDateTime(intl, attributes.autodeletionAt)}
                        className={styles.nowrap}
                      />
                    ) : null}
                  </TableCell>
                )}
                {hasOwnerColumn && <TableCell className={styles.wrap}>{ownerText(attributes)}</TableCell>}
                <TableCell onClick={(event) => event.stopPropagation()}>
                  <RowActions document={document} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
