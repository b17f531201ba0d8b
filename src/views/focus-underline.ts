// How Fluent's text fields draw their focus underline in and out (Input's and Select's rules share it): the
// first screen's native controls in Fluent's look (native-input.tsx, native-select.tsx) spread these into
// their `::after` rules, so the motion is written once. With reduced motion it is near instant, as Fluent's.
import { tokens } from '@fluentui/react-components';

const REDUCED_MOTION = {
  '@media screen and (prefers-reduced-motion: reduce)': {
    transitionDuration: '0.01ms',
    transitionDelay: '0.01ms',
  },
};

/** The underline hidden, and how it leaves when focus does. */
export const UNDERLINE_AT_REST = {
  transform: 'scaleX(0)',
  transitionProperty: 'transform',
  transitionDuration: tokens.durationUltraFast,
  transitionDelay: tokens.curveAccelerateMid,
  ...REDUCED_MOTION,
};

/** The underline drawn, and how it comes when focus does. */
export const UNDERLINE_FOCUSED = {
  transform: 'scaleX(1)',
  transitionProperty: 'transform',
  transitionDuration: tokens.durationNormal,
  transitionDelay: tokens.curveDecelerateMid,
  ...REDUCED_MOTION,
};
