// The reviewers and signatories of the form (spec 001 §2, §4). In an ordered flow the signatories are
// numbered and reorder by dragging or by their up / down buttons; signed signatories and approved
// reviewers stay where they are and cannot be removed. Every rule comes from the form machine's
// exported functions; a move is announced to screen readers.
import { useState } from 'react';
import {
  Button,
  Caption1,
  Subtitle2,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowDown20Regular,
  ArrowUp20Regular,
  Dismiss20Regular,
  ReOrderDotsVertical20Regular,
} from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import type { ParticipantRole } from '../../../machines/participant-search.machine';
import {
  canChangeReviewers,
  canRemove,
  movedSignatories,
  type SignFlowFormContext,
  type SignFlowFormEvent,
} from '../../../machines/sign-flow-form.machine';
import { VISUALLY_HIDDEN } from '../visually-hidden';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '6px' },
  row: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    minHeight: '48px',
  },
  draggable: { cursor: 'grab' },
  dropTarget: { outline: `2px dashed ${tokens.colorBrandStroke1}` },
  number: { minWidth: '1.5em', textAlign: 'right', color: tokens.colorNeutralForeground3 },
  person: {
    display: 'flex',
    flexDirection: 'column',
    flex: '1 1 auto',
    minWidth: 0,
    overflowWrap: 'anywhere',
  },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', flexShrink: 0 },
  icon: { minWidth: '40px', minHeight: '40px' },
  live: VISUALLY_HIDDEN,
});

type Send = (event: SignFlowFormEvent) => void;
type Listed = { emailAddress: string; fullName: string | null; isFixed: boolean };

export function ParticipantLists({ context, send }: { context: SignFlowFormContext; send: Send }) {
  const styles = useStyles();
  const intl = useIntl();
  const [announcement, setAnnouncement] = useState('');
  const [dragged, setDragged] = useState<string | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);

  const nameOf = (person: { emailAddress: string; fullName: string | null }) =>
    person.fullName || person.emailAddress;
  const move = (emailAddress: string, toIndex: number) => {
    const moved = movedSignatories(context, emailAddress, toIndex);
    if (!moved) return;
    send({ type: 'signatory.move', emailAddress, toIndex });
    const person = moved[toIndex];
    if (person) {
      setAnnouncement(
        intl.formatMessage(
          { id: 'signflow.participant.moved' },
          { name: nameOf(person), position: toIndex + 1 },
        ),
      );
    }
  };

  const renderPerson = (role: ParticipantRole, person: Listed, index: number, count: number) => {
    const name = nameOf(person);
    const isSignatory = role === 'signatory';
    const isOrdered = isSignatory && context.isOrdered;
    const canDrag = isOrdered && !person.isFixed;
    return (
      <li
        key={person.emailAddress}
        className={mergeClasses(
          styles.row,
          canDrag && styles.draggable,
          isOrdered && dropIndex === index && dragged !== null && styles.dropTarget,
        )}
        draggable={canDrag}
        onDragStart={(event) => {
          if (!canDrag) return;
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', person.emailAddress);
          setDragged(person.emailAddress);
        }}
        onDragOver={(event) => {
          if (!isOrdered || dragged === null) return;
          if (movedSignatories(context, dragged, index) === null) return;
          event.preventDefault();
          setDropIndex(index);
        }}
        onDragLeave={() => setDropIndex((current) => (current === index ? null : current))}
        onDrop={(event) => {
          event.preventDefault();
          if (dragged !== null) move(dragged, index);
          setDragged(null);
          setDropIndex(null);
        }}
        onDragEnd={() => {
          setDragged(null);
          setDropIndex(null);
        }}
      >
        {isOrdered && (
          <>
            {canDrag && <ReOrderDotsVertical20Regular aria-hidden className={styles.muted} />}
            <Text className={styles.number}>{index + 1}.</Text>
          </>
        )}
        <div className={styles.person}>
          <Text weight="semibold">{name}</Text>
          {person.fullName && <Caption1 className={styles.muted}>{person.emailAddress}</Caption1>}
          {person.isFixed && (
            <Caption1>
              {intl.formatMessage({
                id: isSignatory ? 'signflow.participant.signed' : 'signflow.participant.approved',
              })}
            </Caption1>
          )}
        </div>
        <div className={styles.actions}>
          {isOrdered && (
            <>
              <Button
                appearance="subtle"
                className={styles.icon}
                icon={<ArrowUp20Regular />}
                aria-label={intl.formatMessage({ id: 'signflow.participant.moveUp' }, { name })}
                disabledFocusable={movedSignatories(context, person.emailAddress, index - 1) === null}
                onClick={() => move(person.emailAddress, index - 1)}
              />
              <Button
                appearance="subtle"
                className={styles.icon}
                icon={<ArrowDown20Regular />}
                aria-label={intl.formatMessage({ id: 'signflow.participant.moveDown' }, { name })}
                disabledFocusable={
                  index + 1 >= count || movedSignatories(context, person.emailAddress, index + 1) === null
                }
                onClick={() => move(person.emailAddress, index + 1)}
              />
            </>
          )}
          {canRemove(context, role, person.emailAddress) && (
            <Button
              appearance="subtle"
              className={styles.icon}
              icon={<Dismiss20Regular />}
              aria-label={intl.formatMessage({ id: 'signflow.participant.remove' }, { name })}
              onClick={() => send({ type: 'participant.remove', role, emailAddress: person.emailAddress })}
            />
          )}
        </div>
      </li>
    );
  };

  const reviewers: Listed[] = context.reviewers.map((person) => ({ ...person, isFixed: person.hasApproved }));
  const signatories: Listed[] = context.signatories.map((person) => ({
    ...person,
    isFixed: person.hasSigned,
  }));
  const reviewersTitle = intl.formatMessage({ id: 'signflow.reviewers.title' });
  const signatoriesTitle = intl.formatMessage({ id: 'signflow.signatories.title' });
  const List = context.isOrdered ? 'ol' : 'ul';

  return (
    <>
      <section className={styles.section} aria-label={reviewersTitle}>
        <Subtitle2 as="h3">{reviewersTitle}</Subtitle2>
        {!canChangeReviewers(context) && (
          <Caption1 className={styles.muted}>
            {intl.formatMessage({ id: 'signflow.reviewers.fixed' })}
          </Caption1>
        )}
        {reviewers.length === 0 ? (
          <Caption1 className={styles.muted}>
            {intl.formatMessage({ id: 'signflow.reviewers.empty' })}
          </Caption1>
        ) : (
          <ul className={styles.list}>
            {reviewers.map((person, index) => renderPerson('reviewer', person, index, reviewers.length))}
          </ul>
        )}
      </section>
      <section className={styles.section} aria-label={signatoriesTitle}>
        <Subtitle2 as="h3">{signatoriesTitle}</Subtitle2>
        {context.isOrdered && signatories.length > 1 && (
          <Caption1 className={styles.muted}>
            {intl.formatMessage({ id: 'signflow.signatories.dragHint' })}
          </Caption1>
        )}
        {signatories.length === 0 ? (
          <Caption1 className={styles.muted}>
            {intl.formatMessage({ id: 'signflow.signatories.empty' })}
          </Caption1>
        ) : (
          <List className={styles.list}>
            {signatories.map((person, index) => renderPerson('signatory', person, index, signatories.length))}
          </List>
        )}
        <div aria-live="polite" className={styles.live}>
          {announcement}
        </div>
      </section>
    </>
  );
}
