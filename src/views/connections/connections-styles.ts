// What the connections tab's views share: the actor's type and the styles of rows, cards and dialogs.
import { makeStyles, tokens } from '@fluentui/react-components';
import type { ActorRefFrom } from 'xstate';
import type { connectionsMachine } from '../../../machines/connections.machine';

export type ConnectionsLogic = typeof connectionsMachine;
export type ConnectionsActor = ActorRefFrom<ConnectionsLogic>;

export const useConnectionsStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  button: { minHeight: '40px' },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  table: { width: '100%', tableLayout: 'fixed' },
  actionsColumn: { width: '140px' },
  // The buttons are as tall as a row: without room above and below they touch its borders.
  actionsCell: { paddingTop: tokens.spacingVerticalS, paddingBottom: tokens.spacingVerticalS },
  wrap: { overflowWrap: 'anywhere' },
  cards: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  card: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
  },
  cardText: { display: 'flex', flexDirection: 'column', flex: '1 1 200px', minWidth: 0 },
  cardActions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
  centered: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalXXL },
  surface: { width: '520px', maxWidth: 'calc(100vw - 32px)', boxSizing: 'border-box' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});
