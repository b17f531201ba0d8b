// The signature list (spec 001 §2): the 360 px sidebar on wide screens, the list dialog on small ones.
// Each placed signature shows its signatory's number, name, e-mail and page; signed ones cannot be removed.
// One whose box overlaps others is marked, naming them.
import { Button, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Delete20Regular, Warning16Filled } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { signatoryNumber } from '../../../../machines/signature-placement.machine';
import { nameOf, sameOverlaps, selectOverlaps, type PlacementActor } from './placement-shared';

const useStyles = makeStyles({
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: tokens.spacingVerticalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    minHeight: '44px',
  },
  number: {
    flex: '0 0 auto',
    minWidth: '28px',
    height: '28px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontWeight: tokens.fontWeightSemibold,
  },
  overlapping: { border: `2px solid ${tokens.colorPaletteRedBorder2}` },
  text: { display: 'flex', flexDirection: 'column', flex: '1 1 auto', minWidth: 0, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  warning: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    color: tokens.colorPaletteRedForeground1,
  },
  button: { minWidth: '40px', minHeight: '40px' },
});

export function PlacementList({ editor }: { editor: PlacementActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const signatories = useSelector(editor, (snapshot) => snapshot.context.signatories);
  const placements = useSelector(editor, (snapshot) => snapshot.context.placements);
  const overlaps = useSelector(editor, selectOverlaps, sameOverlaps);
  if (placements.length === 0) {
    return (
      <Text className={styles.muted}>{intl.formatMessage({ id: 'signflow.signatures.list.empty' })}</Text>
    );
  }
  return (
    <ul className={styles.list} aria-label={intl.formatMessage({ id: 'signflow.signatures.list.title' })}>
      {placements.map((placement) => {
        const signatory = signatories.find((person) => person.emailAddress === placement.emailAddress);
        const name = nameOf(signatory, placement.emailAddress);
        const others = overlaps.flatMap(({ emailAddresses: [first, second] }) =>
          first === placement.emailAddress ? [second] : second === placement.emailAddress ? [first] : [],
        );
        const otherNames = others.map((emailAddress) =>
          nameOf(
            signatories.find((person) => person.emailAddress === emailAddress),
            emailAddress,
          ),
        );
        return (
          <li
            key={placement.emailAddress}
            className={mergeClasses(styles.item, others.length > 0 && styles.overlapping)}
          >
            <span className={styles.number} aria-hidden>
              {signatoryNumber(signatories, placement.emailAddress)}
            </span>
            <span className={styles.text}>
              <Text weight="semibold">{name}</Text>
              <Text size={200} className={styles.muted}>
                {placement.emailAddress}
              </Text>
              {signatory?.hasSigned && (
                <Text size={200} className={styles.muted}>
                  {intl.formatMessage({ id: 'signflow.signatures.list.signed' })}
                </Text>
              )}
              {otherNames.length > 0 && (
                <Text size={200} weight="semibold" className={styles.warning}>
                  <Warning16Filled aria-hidden />
                  {intl.formatMessage(
                    { id: 'signflow.signatures.list.overlaps' },
                    { names: intl.formatList(otherNames, { type: 'conjunction' }) },
                  )}
                </Text>
              )}
            </span>
            <Button
              appearance="subtle"
              className={styles.button}
              aria-label={intl.formatMessage(
                { id: 'signflow.signatures.list.showPage' },
                { page: placement.pageNumber },
              )}
              onClick={() => editor.send({ type: 'page.go', pageNumber: placement.pageNumber })}
            >
              {intl.formatMessage({ id: 'signflow.signatures.list.page' }, { page: placement.pageNumber })}
            </Button>
            {!signatory?.hasSigned && (
              <Button
                appearance="subtle"
                className={styles.button}
                icon={<Delete20Regular />}
                aria-label={intl.formatMessage({ id: 'signflow.signatures.list.remove' }, { name })}
                onClick={() =>
                  editor.send({ type: 'placement.removed', emailAddress: placement.emailAddress })
                }
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
