// The editor's three dialogs, always mounted and opened by the machine's state (docs/decisions.md "Modals
// stay mounted"): add a signature where the page was clicked, edit a placed one (change its signatory or
// remove it), and on small screens the signature list. The signatory choice lists only those who have not
// signed (spec 001 §2); one who already has a box keeps one: adding them moves it.
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Radio,
  RadioGroup,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import { addableSignatories, signatoryNumber } from '../../../../machines/signature-placement.machine';
import { PlacementList } from './placement-list';
import { nameOf, type PlacementActor } from './placement-shared';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  list: { maxHeight: '60vh', overflowY: 'auto' },
});

function SignatoryChoice({ editor, labelId }: { editor: PlacementActor; labelId: string }) {
  const intl = useIntl();
  const signatories = useSelector(editor, (snapshot) => snapshot.context.signatories);
  const placements = useSelector(editor, (snapshot) => snapshot.context.placements);
  const chosenEmail = useSelector(editor, (snapshot) => snapshot.context.chosenEmail);
  const editingEmail = useSelector(editor, (snapshot) => snapshot.context.editingEmail);
  return (
    <RadioGroup
      aria-labelledby={labelId}
      value={chosenEmail ?? ''}
      onChange={(_, data) => editor.send({ type: 'signatory.chosen', emailAddress: data.value })}
    >
      {addableSignatories(signatories).map((signatory) => {
        const placed = placements.find((placement) => placement.emailAddress === signatory.emailAddress);
        const label = intl.formatMessage(
          { id: 'signflow.signatures.signatory' },
          {
            number: signatoryNumber(signatories, signatory.emailAddress),
            name: nameOf(signatory),
          },
        );
        const moves =
          placed && placed.emailAddress !== editingEmail
            ? ` (${intl.formatMessage({ id: 'signflow.signatures.add.moves' }, { page: placed.pageNumber })})`
            : '';
        return (
          <Radio
            key={signatory.emailAddress}
            value={signatory.emailAddress}
            label={`${label} · ${signatory.emailAddress}${moves}`}
          />
        );
      })}
    </RadioGroup>
  );
}

export function PlacementDialogs({ editor }: { editor: PlacementActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const addLabelId = useId();
  const editLabelId = useId();
  const isAdding = useSelector(editor, (snapshot) => snapshot.matches({ ready: 'adding' }));
  const isEditing = useSelector(editor, (snapshot) => snapshot.matches({ ready: 'editing' }));
  const isListing = useSelector(editor, (snapshot) => snapshot.matches({ ready: 'list' }));
  const close = () => editor.send({ type: 'dialog.close' });
  const onOpenChange = (_: unknown, data: { open: boolean }) => {
    if (!data.open) close();
  };
  return (
    <>
      <Dialog open={isAdding} onOpenChange={onOpenChange}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{intl.formatMessage({ id: 'signflow.signatures.add.title' })}</DialogTitle>
            <DialogContent className={styles.content}>
              <span id={addLabelId}>{intl.formatMessage({ id: 'signflow.signatures.add.signatory' })}</span>
              <SignatoryChoice editor={editor} labelId={addLabelId} />
            </DialogContent>
            <DialogActions>
              <Button onClick={close}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
              <Button appearance="primary" onClick={() => editor.send({ type: 'add.confirm' })}>
                {intl.formatMessage({ id: 'signflow.signatures.add.confirm' })}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
      <Dialog open={isEditing} onOpenChange={onOpenChange}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{intl.formatMessage({ id: 'signflow.signatures.edit.title' })}</DialogTitle>
            <DialogContent className={styles.content}>
              <span id={editLabelId}>{intl.formatMessage({ id: 'signflow.signatures.add.signatory' })}</span>
              <SignatoryChoice editor={editor} labelId={editLabelId} />
            </DialogContent>
            <DialogActions>
              <Button onClick={() => editor.send({ type: 'edit.remove' })}>
                {intl.formatMessage({ id: 'signflow.signatures.edit.remove' })}
              </Button>
              <Button onClick={close}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
              <Button appearance="primary" onClick={() => editor.send({ type: 'edit.confirm' })}>
                {intl.formatMessage({ id: 'signflow.signatures.edit.confirm' })}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
      <Dialog open={isListing} onOpenChange={onOpenChange}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{intl.formatMessage({ id: 'signflow.signatures.list.title' })}</DialogTitle>
            <DialogContent className={styles.list}>
              <PlacementList editor={editor} />
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={close}>
                {intl.formatMessage({ id: 'common.close' })}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
