// The editor without a mouse: choose a signatory and Place puts their box in the middle of
// the page shown; each movable box on the page then has a button (Tab between them), whose arrow keys
// move the box by 1 % (Shift: 5 %), Enter or Space places it and Delete removes it. The machine announces
// each change politely (the page's aria-live region).
import { Button, Field, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';
import {
  addableSignatories,
  signatoryNumber,
  type NudgeDirection,
} from '../../../../machines/signature-placement.machine';
import { nameOf, type PlacementActor } from './placement-shared';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    width: '100%',
  },
  placeRow: { display: 'flex', alignItems: 'flex-end', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  select: { minWidth: '200px', flex: '1 1 200px' },
  boxes: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    listStyle: 'none',
    margin: 0,
    padding: 0,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  button: { minHeight: '40px' },
});

const ARROWS: Record<string, NudgeDirection> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

export function KeyboardPlacement({ editor }: { editor: PlacementActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const hintId = useId();
  const signatories = useSelector(editor, (snapshot) => snapshot.context.signatories);
  const placements = useSelector(editor, (snapshot) => snapshot.context.placements);
  const pageNumber = useSelector(editor, (snapshot) => snapshot.context.pageNumber);
  const chosenEmail = useSelector(editor, (snapshot) => snapshot.context.chosenEmail);
  const selectedEmail = useSelector(editor, (snapshot) => snapshot.context.selectedEmail);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const focusAfterPlace = useRef<string | null>(null);

  useEffect(() => {
    const target = focusAfterPlace.current;
    if (target === null) return;
    const button = buttons.current.get(target);
    if (button) {
      focusAfterPlace.current = null;
      button.focus();
    }
  });

  const addable = addableSignatories(signatories);
  const onPage = placements.filter(
    (placement) =>
      placement.pageNumber === pageNumber &&
      addable.some((person) => person.emailAddress === placement.emailAddress),
  );

  const onBoxKey = (event: KeyboardEvent<HTMLButtonElement>, emailAddress: string) => {
    const direction = ARROWS[event.key];
    if (direction) {
      event.preventDefault();
      if (selectedEmail !== emailAddress) editor.send({ type: 'box.selected', emailAddress });
      editor.send({ type: 'box.nudged', direction, isLarge: event.shiftKey });
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      editor.send({ type: 'box.confirmed' });
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      editor.send({ type: 'placement.removed', emailAddress });
    }
  };

  const labelOf = (emailAddress: string) =>
    intl.formatMessage(
      { id: 'signflow.signatures.keyboard.box' },
      {
        number: signatoryNumber(signatories, emailAddress),
        name: nameOf(
          signatories.find((person) => person.emailAddress === emailAddress),
          emailAddress,
        ),
      },
    );

  return (
    <section
      className={styles.panel}
      aria-label={intl.formatMessage({ id: 'signflow.signatures.keyboard.title' })}
    >
      {addable.length > 0 && (
        <div className={styles.placeRow}>
          <Field
            className={styles.select}
            label={intl.formatMessage({ id: 'signflow.signatures.keyboard.signatory' })}
          >
            <Select
              value={chosenEmail ?? ''}
              onChange={(_, data) => editor.send({ type: 'signatory.chosen', emailAddress: data.value })}
            >
              {addable.map((signatory) => (
                <option key={signatory.emailAddress} value={signatory.emailAddress}>
                  {intl.formatMessage(
                    { id: 'signflow.signatures.signatory' },
                    { number: signatoryNumber(signatories, signatory.emailAddress), name: nameOf(signatory) },
                  )}
                </option>
              ))}
            </Select>
          </Field>
          <Button
            className={styles.button}
            onClick={() => {
              focusAfterPlace.current = chosenEmail;
              editor.send({ type: 'keyboard.place' });
            }}
          >
            {intl.formatMessage({ id: 'signflow.signatures.keyboard.place' })}
          </Button>
        </div>
      )}
      <Text id={hintId} size={200} className={styles.muted}>
        {intl.formatMessage({ id: 'signflow.signatures.keyboard.hint' })}
      </Text>
      {onPage.length === 0 ? (
        <Text size={200} className={styles.muted}>
          {intl.formatMessage({ id: 'signflow.signatures.keyboard.none' })}
        </Text>
      ) : (
        <ul
          className={styles.boxes}
          aria-label={intl.formatMessage({ id: 'signflow.signatures.keyboard.boxes' })}
        >
          {onPage.map((placement) => (
            <li key={placement.emailAddress}>
              <Button
                ref={(element: HTMLButtonElement | null) => {
                  if (element) buttons.current.set(placement.emailAddress, element);
                  else buttons.current.delete(placement.emailAddress);
                }}
                className={styles.button}
                appearance={selectedEmail === placement.emailAddress ? 'primary' : 'secondary'}
                aria-describedby={hintId}
                aria-pressed={selectedEmail === placement.emailAddress}
                onFocus={() => editor.send({ type: 'box.selected', emailAddress: placement.emailAddress })}
                onKeyDown={(event) => onBoxKey(event, placement.emailAddress)}
              >
                {labelOf(placement.emailAddress)}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
