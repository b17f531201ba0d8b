// Text for assistive technology only: out of sight, still read. One definition for every view.
import type { GriffelStyle } from '@fluentui/react-components';

export const VISUALLY_HIDDEN: GriffelStyle = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};
