// The first screen's selects (the sidebar's language, the list's sort) as the browser's own <select> in
// Fluent's Select look: its outline appearance at medium size, with the same classes, markup, chevron,
// focus underline, hover, disabled and dark-mode colours (the rules below are Fluent's own, for the one
// appearance and size the app uses). Fluent's Select carries every appearance and size: with its Field it
// weighed some 6 KB gzipped before the list could show, these two copies half that (docs/decisions.md
// "The first screen's bundle"). Screens loaded later keep Fluent's Select; a change of Fluent's look
// must be copied here.
import type { ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens, typographyStyles } from '@fluentui/react-components';
import { UNDERLINE_AT_REST, UNDERLINE_FOCUSED } from './focus-underline';
import { ChevronDownRegular } from '@fluentui/react-icons';

const useRootStyles = makeStyles({
  base: {
    alignItems: 'center',
    boxSizing: 'border-box',
    display: 'flex',
    flexWrap: 'nowrap',
    fontFamily: tokens.fontFamilyBase,
    position: 'relative',
    '&::after': {
      backgroundImage: `linear-gradient(
        0deg,
        ${tokens.colorCompoundBrandStroke} 0%,
        ${tokens.colorCompoundBrandStroke} 50%,
        transparent 50%,
        transparent 100%
      )`,
      borderRadius: `0 0 ${tokens.borderRadiusMedium} ${tokens.borderRadiusMedium}`,
      boxSizing: 'border-box',
      content: '""',
      height: tokens.borderRadiusMedium,
      position: 'absolute',
      bottom: '0',
      left: '0',
      right: '0',
      ...UNDERLINE_AT_REST,
    },
    '&:focus-within::after': {
      ...UNDERLINE_FOCUSED,
    },
  },
});

const useSelectStyles = makeStyles({
  base: {
    appearance: 'none',
    border: '1px solid transparent',
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: 'none',
    boxSizing: 'border-box',
    color: tokens.colorNeutralForeground1,
    cursor: 'pointer',
    flexGrow: 1,
    maxWidth: '100%',
    paddingBottom: 0,
    paddingTop: 0,
    ':focus': {
      outlineWidth: '2px',
      outlineStyle: 'solid',
      outlineColor: 'transparent',
    },
  },
  disabled: {
    backgroundColor: tokens.colorTransparentBackground,
    borderTopColor: tokens.colorNeutralStrokeDisabled,
    borderRightColor: tokens.colorNeutralStrokeDisabled,
    borderBottomColor: tokens.colorNeutralStrokeDisabled,
    borderLeftColor: tokens.colorNeutralStrokeDisabled,
    color: tokens.colorNeutralForegroundDisabled,
    cursor: 'not-allowed',
    '@media (forced-colors: active)': {
      borderTopColor: 'GrayText',
      borderRightColor: 'GrayText',
      borderBottomColor: 'GrayText',
      borderLeftColor: 'GrayText',
    },
  },
  medium: {
    height: '32px',
    paddingLeft: `calc(${tokens.spacingHorizontalMNudge} + ${tokens.spacingHorizontalXXS})`,
    paddingRight: `calc(${tokens.spacingHorizontalMNudge}
    + 20px
    + ${tokens.spacingHorizontalXXS}
    + ${tokens.spacingHorizontalXXS})`,
    ...typographyStyles.body1,
  },
  outline: {
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderBottomColor: tokens.colorNeutralStrokeAccessible,
  },
  outlineInteractive: {
    '&:hover': {
      borderTopColor: tokens.colorNeutralStroke1Hover,
      borderRightColor: tokens.colorNeutralStroke1Hover,
      borderBottomColor: tokens.colorNeutralStrokeAccessible,
      borderLeftColor: tokens.colorNeutralStroke1Hover,
    },
    '&:active': {
      borderTopColor: tokens.colorNeutralStroke1Pressed,
      borderRightColor: tokens.colorNeutralStroke1Pressed,
      borderBottomColor: tokens.colorNeutralStrokeAccessible,
      borderLeftColor: tokens.colorNeutralStroke1Pressed,
    },
  },
});

const useIconStyles = makeStyles({
  icon: {
    boxSizing: 'border-box',
    color: tokens.colorNeutralStrokeAccessible,
    display: 'block',
    position: 'absolute',
    pointerEvents: 'none',
    '& svg': { display: 'block' },
  },
  disabled: {
    color: tokens.colorNeutralForegroundDisabled,
    '@media (forced-colors: active)': { color: 'GrayText' },
  },
  medium: {
    fontSize: '20px',
    height: '20px',
    right: tokens.spacingHorizontalMNudge,
    width: '20px',
  },
});

export type NativeSelectProps = {
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  id?: string;
  disabled?: boolean;
  /** On the outer element, as Fluent's Select puts it. */
  className?: string;
  'aria-describedby'?: string;
};

export function NativeSelect({
  value,
  onChange,
  children,
  id,
  disabled = false,
  className,
  'aria-describedby': describedBy,
}: NativeSelectProps) {
  const root = useRootStyles();
  const select = useSelectStyles();
  const icon = useIconStyles();
  return (
    <span className={mergeClasses('fui-Select', root.base, className)}>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-describedby={describedBy}
        className={mergeClasses(
          'fui-Select__select',
          select.base,
          select.medium,
          select.outline,
          !disabled && select.outlineInteractive,
          disabled && select.disabled,
        )}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
      <span className={mergeClasses('fui-Select__icon', icon.icon, disabled && icon.disabled, icon.medium)}>
        <ChevronDownRegular />
      </span>
    </span>
  );
}
