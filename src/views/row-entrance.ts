// Rows come in one after another (spec 000 §9: 60 ms apart in document lists, 100 ms in connections),
// and not at all for people who asked for reduced motion. One definition for every list.
import type { CSSProperties } from 'react';
import { makeStyles } from '@fluentui/react-components';

export const DOCUMENT_ROW_DELAY_MS = 60;
export const CONNECTION_ROW_DELAY_MS = 100;

export const useRowEntranceStyles = makeStyles({
  enter: {
    animationName: {
      from: { opacity: 0, transform: 'translateY(4px)' },
      to: { opacity: 1, transform: 'none' },
    },
    animationDuration: '200ms',
    animationFillMode: 'both',
    '@media (prefers-reduced-motion: reduce)': { animationName: 'none' },
  },
});

export function rowEntranceDelay(index: number, stepMs: number): CSSProperties {
  return { animationDelay: `${index * stepMs}ms` };
}
