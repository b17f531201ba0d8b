// The list's selection checkboxes in Fluent's Checkbox look, with its markup: the browser's own
// <input type="checkbox">, transparent over an indicator drawn beside it, so a person sees Fluent's box,
// tick and mixed square and a screen reader meets the native checkbox (its name, checked or mixed). The
// rules below are Fluent's own for the one size, shape and label position the list uses (medium, square,
// no label). Fluent's Checkbox carries every size, shape and label besides, and its wiring to a Field:
// some 2 KB gzipped before the list could show (docs/decisions.md "The first screen's bundle",
// native-select.tsx). Screens loaded later keep Fluent's Checkbox; a change of Fluent's look must be
// copied here.
import { useLayoutEffect, useRef } from 'react';
import {
  createFocusOutlineStyle,
  makeResetStyles,
  makeStyles,
  mergeClasses,
  tokens,
  useFocusWithin,
} from '@fluentui/react-components';
import { Checkmark12Filled, Square12Filled } from '@fluentui/react-icons';

const INDICATOR_COLOR = '--fui-Checkbox__indicator--color';
const INDICATOR_BORDER_COLOR = '--fui-Checkbox__indicator--borderColor';
const INDICATOR_BACKGROUND_COLOR = '--fui-Checkbox__indicator--backgroundColor';

const useRootClassName = makeResetStyles({
  position: 'relative',
  display: 'inline-flex',
  cursor: 'pointer',
  maxWidth: 'fit-content',
  verticalAlign: 'middle',
  color: tokens.colorNeutralForeground3,
  ...createFocusOutlineStyle({ style: {}, selector: 'focus-within' }),
});

const useRootStyles = makeStyles({
  unchecked: {
    ':hover': {
      color: tokens.colorNeutralForeground2,
      [INDICATOR_BORDER_COLOR]: tokens.colorNeutralStrokeAccessibleHover,
    },
    ':active': {
      color: tokens.colorNeutralForeground1,
      [INDICATOR_BORDER_COLOR]: tokens.colorNeutralStrokeAccessiblePressed,
    },
  },
  checked: {
    color: tokens.colorNeutralForeground1,
    [INDICATOR_BACKGROUND_COLOR]: tokens.colorCompoundBrandBackground,
    [INDICATOR_COLOR]: tokens.colorNeutralForegroundInverted,
    [INDICATOR_BORDER_COLOR]: tokens.colorCompoundBrandBackground,
    ':hover': {
      [INDICATOR_BACKGROUND_COLOR]: tokens.colorCompoundBrandBackgroundHover,
      [INDICATOR_BORDER_COLOR]: tokens.colorCompoundBrandBackgroundHover,
    },
    ':active': {
      [INDICATOR_BACKGROUND_COLOR]: tokens.colorCompoundBrandBackgroundPressed,
      [INDICATOR_BORDER_COLOR]: tokens.colorCompoundBrandBackgroundPressed,
    },
  },
  mixed: {
    color: tokens.colorNeutralForeground1,
    [INDICATOR_BORDER_COLOR]: tokens.colorCompoundBrandStroke,
    [INDICATOR_COLOR]: tokens.colorCompoundBrandForeground1,
    ':hover': {
      [INDICATOR_BORDER_COLOR]: tokens.colorCompoundBrandStrokeHover,
      [INDICATOR_COLOR]: tokens.colorCompoundBrandForeground1Hover,
    },
    ':active': {
      [INDICATOR_BORDER_COLOR]: tokens.colorCompoundBrandStrokePressed,
      [INDICATOR_COLOR]: tokens.colorCompoundBrandForeground1Pressed,
    },
  },
});

const useInputClassName = makeResetStyles({
  boxSizing: 'border-box',
  cursor: 'inherit',
  height: '100%',
  margin: 0,
  opacity: 0,
  position: 'absolute',
  top: 0,
  // The indicator and the space around it: a click there still toggles.
  width: `calc(16px + 2 * ${tokens.spacingHorizontalS})`,
});

const useInputStyles = makeStyles({ after: { left: 0 } });

const useIndicatorClassName = makeResetStyles({
  alignSelf: 'flex-start',
  boxSizing: 'border-box',
  flexShrink: 0,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  overflow: 'hidden',
  color: `var(${INDICATOR_COLOR})`,
  backgroundColor: `var(${INDICATOR_BACKGROUND_COLOR})`,
  borderColor: `var(${INDICATOR_BORDER_COLOR}, ${tokens.colorNeutralStrokeAccessible})`,
  borderStyle: 'solid',
  borderWidth: tokens.strokeWidthThin,
  borderRadius: tokens.borderRadiusSmall,
  margin: tokens.spacingVerticalS + ' ' + tokens.spacingHorizontalS,
  fill: 'currentColor',
  pointerEvents: 'none',
  fontSize: '12px',
  height: '16px',
  width: '16px',
});

export type NativeCheckboxProps = {
  checked: boolean | 'mixed';
  'aria-label': string;
  /** Without one, the checkbox only shows its state: a click on it goes on to its container. */
  onChange?: (checked: boolean) => void;
};

export function NativeCheckbox({ checked, 'aria-label': label, onChange }: NativeCheckboxProps) {
  const rootClassName = useRootClassName();
  const root = useRootStyles();
  const inputClassName = useInputClassName();
  const input = useInputStyles();
  const indicatorClassName = useIndicatorClassName();
  const focusWithin = useFocusWithin<HTMLSpanElement>();
  const inputRef = useRef<HTMLInputElement>(null);
  const isMixed = checked === 'mixed';
  // Mixed is a property only: no attribute says it.
  useLayoutEffect(() => {
    if (inputRef.current) inputRef.current.indeterminate = isMixed;
  }, [isMixed]);
  return (
    <span
      ref={focusWithin}
      className={mergeClasses(
        'fui-Checkbox',
        rootClassName,
        isMixed ? root.mixed : checked ? root.checked : root.unchecked,
      )}
    >
      <input
        ref={inputRef}
        type="checkbox"
        aria-label={label}
        checked={checked === true}
        className={mergeClasses('fui-Checkbox__input', inputClassName, input.after)}
        onChange={(event) => onChange?.(event.currentTarget.checked)}
      />
      <div aria-hidden className={mergeClasses('fui-Checkbox__indicator', indicatorClassName)}>
        {isMixed ? <Square12Filled /> : checked ? <Checkmark12Filled /> : null}
      </div>
    </span>
  );
}
