// Fluent's Field around the first screen's controls (the sidebar's language, the list's search and sort),
// for the cases the app has there: a label above its control, a warning under it, a hint. The markup,
// classes and rules are Fluent's own (vertical, medium), and so is the wiring: the label names the
// control, the warning and the hint describe it, the warning is announced. Fluent's Field carries every
// orientation, size and state besides (docs/decisions.md "The first screen's bundle", native-select.tsx);
// forms of screens loaded later keep it.
import { useId, type ReactNode } from 'react';
import {
  makeResetStyles,
  makeStyles,
  mergeClasses,
  tokens,
  typographyStyles,
} from '@fluentui/react-components';
import { Warning12Filled } from '@fluentui/react-icons';

const useRootStyles = makeStyles({ base: { display: 'grid' } });

// Fluent's Label (medium, regular) under Fluent's Field's label rules: the label's every size, weight
// and its required mark stay with Fluent's Label.
const useLabelStyles = makeStyles({
  root: { fontFamily: tokens.fontFamilyBase, color: tokens.colorNeutralForeground1 },
  medium: { fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  base: { maxWidth: 'max-content', maxHeight: 'max-content' },
  vertical: {
    paddingTop: tokens.spacingVerticalXXS,
    paddingBottom: tokens.spacingVerticalXXS,
    marginBottom: tokens.spacingVerticalXXS,
  },
});

const useSecondaryTextBaseClassName = makeResetStyles({
  marginTop: tokens.spacingVerticalXXS,
  color: tokens.colorNeutralForeground3,
  ...typographyStyles.caption1,
});

const useSecondaryTextStyles = makeStyles({
  withIcon: { paddingLeft: `calc(12px + ${tokens.spacingHorizontalXS})` },
});

const useValidationMessageIconBaseClassName = makeResetStyles({
  display: 'inline-block',
  fontSize: '12px',
  marginLeft: `calc(-12px - ${tokens.spacingHorizontalXS})`,
  marginRight: tokens.spacingHorizontalXS,
  lineHeight: '0',
  verticalAlign: '-1px',
});

const useValidationMessageIconStyles = makeStyles({
  warning: { color: tokens.colorPaletteDarkOrangeForeground1 },
});

/** What the control needs to be named and described by the frame. */
export type FramedControl = { id: string; 'aria-describedby'?: string };

export type FieldFrameProps = {
  label: string;
  /** A warning under the control (Fluent's validationState "warning"). */
  warning?: string | null;
  hint?: string;
  className?: string;
  children: (control: FramedControl) => ReactNode;
};

export function FieldFrame({ label, warning = null, hint, className, children }: FieldFrameProps) {
  const baseId = `field-${useId()}`;
  const root = useRootStyles();
  const labels = useLabelStyles();
  const secondaryText = useSecondaryTextBaseClassName();
  const secondaryTextStyles = useSecondaryTextStyles();
  const iconBase = useValidationMessageIconBaseClassName();
  const iconStyles = useValidationMessageIconStyles();
  const controlId = `${baseId}__control`;
  const warningId = `${baseId}__validationMessage`;
  const hintId = `${baseId}__hint`;
  const describedBy = [warning ? warningId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className={mergeClasses('fui-Field', root.base, className)}>
      <label
        htmlFor={controlId}
        id={`${baseId}__label`}
        className={mergeClasses(
          'fui-Label',
          labels.root,
          labels.medium,
          'fui-Field__label',
          labels.base,
          labels.vertical,
        )}
      >
        {label}
      </label>
      {children({ id: controlId, ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {warning && (
        <div
          id={warningId}
          role="alert"
          className={mergeClasses(
            'fui-Field__validationMessage',
            secondaryText,
            secondaryTextStyles.withIcon,
          )}
        >
          <span className={mergeClasses('fui-Field__validationMessageIcon', iconBase, iconStyles.warning)}>
            <Warning12Filled />
          </span>
          {warning}
        </div>
      )}
      {hint && (
        <div id={hintId} className={mergeClasses('fui-Field__hint', secondaryText)}>
          {hint}
        </div>
      )}
    </div>
  );
}
