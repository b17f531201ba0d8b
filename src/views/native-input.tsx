// The list's search box as the browser's own <input> in Fluent's Input look: its outline appearance at
// medium size, with the same classes, markup, focus underline, hover and pressed borders and placeholder
// colour (the rules below are Fluent's own, for the one appearance and size the list uses). Fluent's Input
// carries every appearance, size and state besides, and its wiring to a Field: some 2 KB gzipped before
// the list could show (docs/decisions.md "The first screen's bundle", native-select.tsx). Forms of screens
// loaded later keep Fluent's Input; a change of Fluent's look must be copied here.
import type { InputHTMLAttributes, ReactNode } from 'react';
import {
  makeResetStyles,
  makeStyles,
  mergeClasses,
  tokens,
  typographyStyles,
} from '@fluentui/react-components';
import { UNDERLINE_AT_REST, UNDERLINE_FOCUSED } from './focus-underline';

const useRootClassName = makeResetStyles({
  display: 'inline-flex',
  alignItems: 'center',
  flexWrap: 'nowrap',
  gap: tokens.spacingHorizontalXXS,
  borderRadius: tokens.borderRadiusMedium,
  position: 'relative',
  boxSizing: 'border-box',
  verticalAlign: 'middle',
  minHeight: '32px',
  ...typographyStyles.body1,
  backgroundColor: tokens.colorNeutralBackground1,
  border: `1px solid ${tokens.colorNeutralStroke1}`,
  borderBottomColor: tokens.colorNeutralStrokeAccessible,
  '::after': {
    boxSizing: 'border-box',
    content: '""',
    position: 'absolute',
    left: '-1px',
    bottom: '-1px',
    right: '-1px',
    height: `max(2px, ${tokens.borderRadiusMedium})`,
    borderBottomLeftRadius: tokens.borderRadiusMedium,
    borderBottomRightRadius: tokens.borderRadiusMedium,
    borderBottom: `2px solid ${tokens.colorCompoundBrandStroke}`,
    clipPath: 'inset(calc(100% - 2px) 0 0 0)',
    ...UNDERLINE_AT_REST,
  },
  ':focus-within::after': {
    ...UNDERLINE_FOCUSED,
  },
  ':focus-within:active::after': {
    borderBottomColor: tokens.colorCompoundBrandStrokePressed,
  },
  ':focus-within': {
    outline: '2px solid transparent',
  },
});

const useRootStyles = makeStyles({
  outlineInteractive: {
    ':hover': {
      borderTopColor: tokens.colorNeutralStroke1Hover,
      borderRightColor: tokens.colorNeutralStroke1Hover,
      borderLeftColor: tokens.colorNeutralStroke1Hover,
      borderBottomColor: tokens.colorNeutralStrokeAccessibleHover,
    },
    ':active,:focus-within': {
      borderTopColor: tokens.colorNeutralStroke1Pressed,
      borderRightColor: tokens.colorNeutralStroke1Pressed,
      borderLeftColor: tokens.colorNeutralStroke1Pressed,
      borderBottomColor: tokens.colorNeutralStrokeAccessiblePressed,
    },
  },
  mediumWithContentAfter: { paddingRight: tokens.spacingHorizontalMNudge },
});

const useInputClassName = makeResetStyles({
  alignSelf: 'stretch',
  boxSizing: 'border-box',
  flexGrow: 1,
  minWidth: 0,
  borderStyle: 'none',
  padding: `0 ${tokens.spacingHorizontalM}`,
  color: tokens.colorNeutralForeground1,
  backgroundColor: 'transparent',
  '::placeholder': {
    color: tokens.colorNeutralForeground4,
    opacity: 1,
  },
  outlineStyle: 'none',
  fontFamily: 'inherit',
  fontSize: 'inherit',
  fontWeight: 'inherit',
  lineHeight: 'inherit',
});

const useInputStyles = makeStyles({
  mediumWithContentAfter: { paddingRight: tokens.spacingHorizontalXXS },
});

const useContentClassName = makeResetStyles({
  boxSizing: 'border-box',
  color: tokens.colorNeutralForeground3,
  display: 'flex',
  '> svg': { fontSize: '20px' },
});

export type NativeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
  /** On the outer element, as Fluent's Input puts it. */
  className?: string;
  /** After the text, inside the frame (Fluent's contentAfter). */
  contentAfter?: ReactNode;
};

export function NativeInput({ value, onChange, className, contentAfter, ...input }: NativeInputProps) {
  const rootClassName = useRootClassName();
  const root = useRootStyles();
  const inputClassName = useInputClassName();
  const inputStyles = useInputStyles();
  const contentClassName = useContentClassName();
  const hasContentAfter = contentAfter !== undefined && contentAfter !== null && contentAfter !== false;
  return (
    <span
      className={mergeClasses(
        'fui-Input',
        rootClassName,
        hasContentAfter && root.mediumWithContentAfter,
        root.outlineInteractive,
        className,
      )}
    >
      <input
        type="text"
        {...input}
        value={value}
        className={mergeClasses(
          'fui-Input__input',
          inputClassName,
          hasContentAfter && inputStyles.mediumWithContentAfter,
        )}
        onChange={(event) => onChange(event.target.value)}
      />
      {hasContentAfter && (
        <span className={mergeClasses('fui-Input__contentAfter', contentClassName)}>{contentAfter}</span>
      )}
    </span>
  );
}
