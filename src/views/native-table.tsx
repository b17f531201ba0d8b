// The list's table as the browser's own table elements in Fluent's Table look: the same elements, classes
// and rules as Fluent's Table, TableHeader, TableBody, TableRow, TableCell and TableHeaderCell at medium
// size with native elements, rows plain or selected ("brand"), header cells not sortable (the rules
// below are Fluent's own for those cases; rules that only style Fluent's selection and actions cells,
// which the list does not use, are left out). Fluent's Table carries every size, the div layout, sorting,
// resizing and its contexts besides: some 2 KB gzipped before the list could show (docs/decisions.md
// "The first screen's bundle", native-select.tsx). Screens loaded later keep Fluent's Table; a change of
// Fluent's look must be copied here.
import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import {
  createCustomFocusIndicatorStyle,
  makeStyles,
  mergeClasses,
  tokens,
  useFocusWithin,
} from '@fluentui/react-components';

const useTableStyles = makeStyles({
  root: {
    borderCollapse: 'collapse',
    backgroundColor: tokens.colorSubtleBackground,
  },
  layout: {
    display: 'table',
    verticalAlign: 'middle',
    width: '100%',
    tableLayout: 'fixed',
  },
});

const useRowGroupStyles = makeStyles({ layout: { display: 'table-row-group' } });

const useRowStyles = makeStyles({
  root: {
    color: tokens.colorNeutralForeground1,
    boxSizing: 'border-box',
    ...createCustomFocusIndicatorStyle(
      { outline: `2px solid ${tokens.colorStrokeFocus2}`, borderRadius: tokens.borderRadiusMedium },
      { selector: 'focus' },
    ),
  },
  rootInteractive: {
    ':active': {
      backgroundColor: tokens.colorSubtleBackgroundPressed,
      color: tokens.colorNeutralForeground1Pressed,
    },
    ':hover': {
      backgroundColor: tokens.colorSubtleBackgroundHover,
      color: tokens.colorNeutralForeground1Hover,
    },
    '@media (forced-colors: active)': {
      ':hover': {
        color: 'Highlight',
        borderTopColor: 'Highlight',
        borderRightColor: 'Highlight',
        borderBottomColor: 'Highlight',
        borderLeftColor: 'Highlight',
      },
    },
  },
  medium: {
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  layout: { display: 'table-row' },
  brand: {
    backgroundColor: tokens.colorBrandBackground2,
    borderTopColor: tokens.colorTransparentStrokeInteractive,
    borderRightColor: tokens.colorTransparentStrokeInteractive,
    borderBottomColor: tokens.colorTransparentStrokeInteractive,
    borderLeftColor: tokens.colorTransparentStrokeInteractive,
    ':active': {
      backgroundColor: tokens.colorBrandBackground2,
      color: tokens.colorNeutralForeground1,
    },
    '@media(forced-colors: active)': {
      border: '2px solid transparent',
      borderRadius: tokens.borderRadiusMedium,
      boxSizing: 'border-box',
      ':focus-visible': {
        outlineOffset: '-4px',
      },
    },
  },
});

const useCellStyles = makeStyles({
  root: {
    position: 'relative',
    padding: `0px ${tokens.spacingHorizontalS}`,
    ...createCustomFocusIndicatorStyle(
      { outline: `2px solid ${tokens.colorStrokeFocus2}`, borderRadius: tokens.borderRadiusMedium },
      { selector: 'focus' },
    ),
  },
  layout: { display: 'table-cell', verticalAlign: 'middle' },
  medium: { height: '44px' },
});

const useHeaderCellStyles = makeStyles({
  root: {
    fontWeight: tokens.fontWeightRegular,
    padding: `0px ${tokens.spacingHorizontalS}`,
    ...createCustomFocusIndicatorStyle(
      { outline: `2px solid ${tokens.colorStrokeFocus2}`, borderRadius: tokens.borderRadiusMedium },
      { selector: 'focus-within' },
    ),
    position: 'relative',
  },
  layout: { display: 'table-cell', verticalAlign: 'middle' },
  resetButton: {
    resize: 'horizontal',
    boxSizing: 'content-box',
    backgroundColor: 'inherit',
    color: 'inherit',
    fontFamily: 'inherit',
    fontSize: 'inherit',
    lineHeight: 'normal',
    overflow: 'visible',
    padding: '0',
    border: 'none',
    textAlign: 'unset',
  },
  button: {
    position: 'relative',
    width: '100%',
    display: 'flex',
    flexGrow: 1,
    height: '100%',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minHeight: '32px',
    flex: '1 1 0px',
    outlineStyle: 'none',
  },
});

export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  const styles = useTableStyles();
  return <table {...props} className={mergeClasses('fui-Table', styles.root, styles.layout, className)} />;
}

export function TableHeader({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  const styles = useRowGroupStyles();
  return <thead {...props} className={mergeClasses('fui-TableHeader', styles.layout, className)} />;
}

export function TableBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  const styles = useRowGroupStyles();
  return <tbody {...props} className={mergeClasses('fui-TableBody', styles.layout, className)} />;
}

export type TableRowProps = HTMLAttributes<HTMLTableRowElement> & {
  appearance?: 'brand' | 'none';
  /** The header's row: no hover or pressed colours (Fluent's TableRow reads this from TableHeader). */
  isHeaderRow?: boolean;
};

export function TableRow({ appearance = 'none', isHeaderRow = false, className, ...props }: TableRowProps) {
  const styles = useRowStyles();
  return (
    <tr
      {...props}
      className={mergeClasses(
        'fui-TableRow',
        styles.root,
        !isHeaderRow && styles.rootInteractive,
        styles.medium,
        styles.layout,
        appearance === 'brand' && styles.brand,
        className,
      )}
    />
  );
}

export function TableCell({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  const styles = useCellStyles();
  return (
    <td
      {...props}
      className={mergeClasses('fui-TableCell', styles.root, styles.layout, styles.medium, className)}
    />
  );
}

export function TableHeaderCell({ className, children, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  const styles = useHeaderCellStyles();
  const focusWithin = useFocusWithin<HTMLTableCellElement>();
  return (
    <th
      ref={focusWithin}
      {...props}
      className={mergeClasses('fui-TableHeaderCell', styles.root, styles.layout, className)}
    >
      <div className={mergeClasses('fui-TableHeaderCell__button', styles.resetButton, styles.button)}>
        {children}
      </div>
    </th>
  );
}
