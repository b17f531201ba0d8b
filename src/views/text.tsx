// Fluent's Text and the typography presets the first screen shows (Caption1, Title2, Title3), with
// Fluent's own markup, classes and rules for the options the app uses there (a size of 200, semibold).
// Fluent's Text carries every size, weight, font, alignment, wrap and decoration besides: about 1 KB
// gzipped before the list could show (docs/decisions.md "The first screen's bundle", native-select.tsx).
// Screens loaded later keep Fluent's; a change of Fluent's look must be copied here.
import type { HTMLAttributes } from 'react';
import { makeStyles, mergeClasses, tokens, typographyStyles } from '@fluentui/react-components';

const useTextStyles = makeStyles({
  root: {
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    fontWeight: tokens.fontWeightRegular,
    textAlign: 'start',
    display: 'inline',
    whiteSpace: 'normal',
    overflow: 'visible',
    textOverflow: 'clip',
  },
  base200: {
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
  },
  weightSemibold: { fontWeight: tokens.fontWeightSemibold },
});

const usePresetStyles = makeStyles({
  caption1: typographyStyles.caption1,
  title2: typographyStyles.title2,
  title3: typographyStyles.title3,
});

type TextElement = 'span' | 'p' | 'h1' | 'h2' | 'h3';

export type TextProps = HTMLAttributes<HTMLElement> & {
  as?: TextElement;
  size?: 200;
  weight?: 'semibold';
};

export function Text({ as: Element = 'span', size, weight, className, ...props }: TextProps) {
  const styles = useTextStyles();
  return (
    <Element
      {...props}
      className={mergeClasses(
        'fui-Text',
        styles.root,
        size === 200 && styles.base200,
        weight === 'semibold' && styles.weightSemibold,
        className,
      )}
    />
  );
}

type PresetProps = HTMLAttributes<HTMLElement> & { as?: TextElement };

function usePreset(preset: 'caption1' | 'title2' | 'title3', presetClassName: string, className?: string) {
  const styles = useTextStyles();
  const presets = usePresetStyles();
  return mergeClasses(presetClassName, 'fui-Text', styles.root, presets[preset], className);
}

export function Caption1({ as: Element = 'span', className, ...props }: PresetProps) {
  return <Element {...props} className={usePreset('caption1', 'fui-Caption1', className)} />;
}

export function Title2({ as: Element = 'span', className, ...props }: PresetProps) {
  return <Element {...props} className={usePreset('title2', 'fui-Title2', className)} />;
}

export function Title3({ as: Element = 'span', className, ...props }: PresetProps) {
  return <Element {...props} className={usePreset('title3', 'fui-Title3', className)} />;
}
