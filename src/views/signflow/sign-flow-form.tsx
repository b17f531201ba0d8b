// The sign flow form (spec 001 §2 "Sign flow form"): participants (search, reviewers, signatories), the
// ordered and minimum options, where the signatures go (placed on the pages, or a signature page), the
// comment, the save error and the submit / cancel actions. It only shows the form actor's context and
// sends its events; why the submit is disabled is spelled out next to it.
import { useEffect, useId, useRef } from 'react';
import {
  Button,
  Caption1,
  Checkbox,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Radio,
  RadioGroup,
  Subtitle1,
  Text,
  Textarea,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeft20Regular, Signature20Regular, Warning16Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { participantSearchMachine } from '../../../machines/participant-search.machine';
import {
  COMMENT_MAX_LENGTH,
  afterPageProblem,
  canChangeType,
  hasAnySigned,
  isCommentTooLong,
  minimumProblem,
  submitBlockers,
  type MinimumProblem,
  type PagePosition,
  type SignatureMode,
  type SubmitBlocker,
  type signFlowFormMachine,
} from '../../../machines/sign-flow-form.machine';
import type { MessageId } from '../../i18n/messages';
import { Busy } from '../busy';
import { truncateName } from '../format';
import { ParticipantLists } from './participant-lists';
import { ParticipantSearch } from './participant-search';

export type SignFlowFormActor = ActorRefFrom<typeof signFlowFormMachine>;
export type ParticipantSearchActor = ActorRefFrom<typeof participantSearchMachine>;

const useStyles = makeStyles({
  page: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    maxWidth: '760px',
    minWidth: 0,
    overflowWrap: 'anywhere',
  },
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    '@media (max-width: 767px)': { padding: tokens.spacingHorizontalM },
  },
  minimum: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  // Spec 001 §9: the minimum signatures input is 36 px wide (the box and its padding).
  minimumInput: { width: '36px', minWidth: '36px', minHeight: '40px' },
  hint: { display: 'inline-flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalXS },
  hintIcon: { flexShrink: 0, marginTop: '2px', color: tokens.colorStatusWarningForeground1 },
  pageNumber: { width: '96px', minHeight: '40px' },
  after: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  error: { color: tokens.colorPaletteRedForeground1 },
  inline: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'center' },
  button: { minHeight: '40px' },
  reasons: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
});

const BLOCKER_TEXTS: Record<SubmitBlocker, MessageId> = {
  noSignatories: 'signflow.blocked.noSignatories',
  placementsMissing: 'signflow.blocked.placementsMissing',
  afterPage: 'signflow.blocked.afterPage',
  commentTooLong: 'signflow.blocked.commentTooLong',
};

const MINIMUM_HINTS: Record<MinimumProblem, MessageId> = {
  needsTwoSignatories: 'signflow.minimum.needsTwo',
  empty: 'signflow.minimum.empty',
  notANumber: 'signflow.minimum.notANumber',
  outOfRange: 'signflow.minimum.outOfRange',
};

export function SignFlowForm({
  form,
  search,
  placementHref,
}: {
  form: SignFlowFormActor;
  search: ParticipantSearchActor;
  /** Where "Place the signatures" goes (the /signatures page of this form). */
  placementHref: string;
}) {
  const styles = useStyles();
  const intl = useIntl();
  const ids = useId();
  const minimumRef = useRef<HTMLInputElement>(null);
  const context = useSelector(form, (snapshot) => snapshot.context);
  const state = useSelector(form, (snapshot) =>
    snapshot.matches('loading')
      ? 'loading'
      : snapshot.matches('loadFailed')
        ? 'loadFailed'
        : snapshot.matches('left')
          ? 'left'
          : 'form',
  );
  const isSaving = useSelector(form, (snapshot) => snapshot.matches('saving'));
  const isSaveFailed = useSelector(form, (snapshot) => snapshot.matches({ editing: 'saveFailed' }));

  useEffect(() => {
    const subscription = form.on('minimum.focus', () => minimumRef.current?.focus());
    return () => subscription.unsubscribe();
  }, [form]);

  const documentLink = `/document/${encodeURIComponent(context.documentId)}`;
  const title = intl.formatMessage({
    id: context.mode === 'new' ? 'signflow.new.title' : 'signflow.edit.title',
  });

  if (state === 'loading' || state === 'left') {
    return <Busy label={intl.formatMessage({ id: 'signflow.loading' })} />;
  }
  if (state === 'loadFailed') {
    return (
      <div className={styles.page}>
        <Title2 as="h1">{title}</Title2>
        <MessageBar intent="error" layout="multiline" role="alert">
          <MessageBarBody>{intl.formatMessage({ id: 'signflow.edit.error-loading' })}</MessageBarBody>
        </MessageBar>
        <div>
          <Button
            className={styles.button}
            icon={<ArrowLeft20Regular />}
            onClick={() => form.send({ type: 'form.back' })}
          >
            {intl.formatMessage({ id: 'signflow.goBack' })}
          </Button>
        </div>
      </div>
    );
  }

  const send = form.send.bind(form);
  const isSigned = hasAnySigned(context);
  const isTypeFixed = !canChangeType(context);
  const minimum = minimumProblem(context);
  const afterPage = afterPageProblem(context);
  const blockers = submitBlockers(context);
  const attributes = context.document?.attributes;
  const isProcessing = !attributes || attributes.processing || attributes.publicImagesFileUrls.length === 0;
  const name = attributes?.originalFilename ?? '';
  const reasonsId = `${ids}-reasons`;
  const commentTooLong = isCommentTooLong(context);

  return (
    <form
      className={styles.page}
      noValidate
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        send({ type: 'form.submit' });
      }}
    >
      <div>
        <Link href={documentLink} asChild>
          <Button as="a" appearance="subtle" className={styles.button} icon={<ArrowLeft20Regular />}>
            {intl.formatMessage({ id: 'signflow.goBack' })}
          </Button>
        </Link>
      </div>
      <div>
        <Title2 as="h1" block>
          {title}
        </Title2>
        <Text as="p" block className={styles.muted} title={name}>
          {intl.formatMessage({ id: 'signflow.document' }, { name: truncateName(name) })}
        </Text>
      </div>
      {context.isRestored && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>{intl.formatMessage({ id: 'signflow.restored' })}</MessageBarBody>
        </MessageBar>
      )}

      <section className={styles.section} aria-labelledby={`${ids}-participants`}>
        <Subtitle1 as="h2" id={`${ids}-participants`}>
          {intl.formatMessage({ id: 'signflow.connections.title' })}
        </Subtitle1>
        <ParticipantSearch search={search} />
        <ParticipantLists context={context} send={send} />
        <Checkbox
          label={intl.formatMessage({ id: 'signflow.ordered.label' })}
          checked={context.isOrdered}
          disabled={isTypeFixed}
          onChange={(_event, data) => send({ type: 'ordered.changed', isOrdered: data.checked === true })}
        />
        {isTypeFixed && (
          <Caption1 className={styles.muted}>{intl.formatMessage({ id: 'signflow.ordered.fixed' })}</Caption1>
        )}
        <div className={styles.minimum}>
          <Checkbox
            label={intl.formatMessage({ id: 'signflow.minimum.label' })}
            checked={context.isMinimumOn}
            disabled={context.isOrdered}
            onChange={(_event, data) => send({ type: 'minimum.toggled', isOn: data.checked === true })}
          />
          <Input
            ref={minimumRef}
            className={styles.minimumInput}
            inputMode="numeric"
            aria-label={intl.formatMessage({ id: 'signflow.minimum.input' })}
            aria-invalid={minimum !== null || undefined}
            aria-describedby={minimum ? `${ids}-minimum` : undefined}
            value={context.minimumText}
            disabled={context.isOrdered}
            onChange={(_event, data) => send({ type: 'minimum.changed', text: data.value })}
          />
          {/* A hint, not an error: spec 001 §5 sends an unusable minimum as 0 and the form can still be
              sent, so it says what will happen. A polite live region, so typing is not interrupted. */}
          <Caption1 id={`${ids}-minimum`} role="status" className={styles.hint}>
            {minimum && (
              <>
                <Warning16Regular aria-hidden className={styles.hintIcon} />
                {intl.formatMessage({ id: MINIMUM_HINTS[minimum] }, { max: context.signatories.length - 1 })}
              </>
            )}
          </Caption1>
        </div>
      </section>

      <section className={styles.section} aria-labelledby={`${ids}-signatures`}>
        <Subtitle1 as="h2" id={`${ids}-signatures`}>
          {intl.formatMessage({ id: 'signflow.mode.label' })}
        </Subtitle1>
        {isSigned && (
          <Caption1 className={styles.muted}>{intl.formatMessage({ id: 'signflow.mode.fixed' })}</Caption1>
        )}
        <RadioGroup
          aria-labelledby={`${ids}-signatures`}
          value={context.signatureMode}
          disabled={isSigned}
          onChange={(_event, data) => send({ type: 'mode.changed', mode: data.value as SignatureMode })}
        >
          <Radio value="inline" label={intl.formatMessage({ id: 'signflow.mode.inline' })} />
          <Radio value="page" label={intl.formatMessage({ id: 'signflow.mode.page' })} />
        </RadioGroup>
        {context.signatureMode === 'inline' ? (
          <div className={styles.inline}>
            <Text role="status">
              {intl.formatMessage(
                { id: 'signflow.placed' },
                { placed: context.placements.length, total: context.signatories.length },
              )}
            </Text>
            {/* While the page images are still being made the editor says so and waits for them. */}
            {context.signatories.length === 0 ? (
              <Button className={styles.button} icon={<Signature20Regular />} disabledFocusable>
                {intl.formatMessage({ id: 'signflow.place' })}
              </Button>
            ) : (
              <Link href={placementHref} asChild>
                <Button as="a" className={styles.button} icon={<Signature20Regular />}>
                  {intl.formatMessage({ id: 'signflow.place' })}
                </Button>
              </Link>
            )}
          </div>
        ) : (
          <Field label={intl.formatMessage({ id: 'signflow.page.label' })}>
            <RadioGroup
              value={context.pagePosition}
              disabled={isSigned}
              onChange={(_event, data) =>
                send({ type: 'pagePosition.changed', position: data.value as PagePosition })
              }
            >
              <Radio value="first" label={intl.formatMessage({ id: 'signflow.page.first' })} />
              <div className={styles.after}>
                <Radio value="after" label={intl.formatMessage({ id: 'signflow.page.after' })} />
                <Input
                  className={styles.pageNumber}
                  inputMode="numeric"
                  aria-label={intl.formatMessage({ id: 'signflow.page.number' })}
                  aria-invalid={afterPage !== null || undefined}
                  aria-describedby={afterPage ? `${ids}-after` : undefined}
                  value={context.afterPageText}
                  disabled={isSigned || context.pagePosition !== 'after'}
                  onChange={(_event, data) => send({ type: 'afterPage.changed', text: data.value })}
                />
              </div>
              <Radio value="last" label={intl.formatMessage({ id: 'signflow.page.last' })} />
            </RadioGroup>
          </Field>
        )}
        {context.signatureMode === 'page' && afterPage && (
          <Caption1 id={`${ids}-after`} className={styles.error} role="alert">
            {afterPage === 'belowOne'
              ? intl.formatMessage({ id: 'signflow.page.belowOne' })
              : intl.formatMessage({ id: 'signflow.page.pastEnd' }, { count: context.pageCount ?? 0 })}
          </Caption1>
        )}
        {isProcessing && (
          <MessageBar intent="warning" layout="multiline">
            <MessageBarBody>{intl.formatMessage({ id: 'signflow.processing' })}</MessageBarBody>
          </MessageBar>
        )}
      </section>

      <section className={styles.section}>
        <Field
          label={intl.formatMessage({ id: 'signflow.comment.label' })}
          validationState={commentTooLong ? 'error' : 'none'}
          validationMessage={
            commentTooLong
              ? intl.formatMessage({ id: 'signflow.comment.tooLong' }, { max: COMMENT_MAX_LENGTH })
              : undefined
          }
          hint={intl.formatMessage(
            { id: 'signflow.comment.counter' },
            { count: context.comment.length, max: COMMENT_MAX_LENGTH },
          )}
        >
          <Textarea
            resize="vertical"
            rows={4}
            value={context.comment}
            onChange={(_event, data) => send({ type: 'comment.changed', comment: data.value })}
          />
        </Field>
      </section>

      {isSaveFailed && context.saveErrorCode && (
        <MessageBar intent="error" layout="multiline" role="alert">
          <MessageBarBody>
            <MessageBarTitle>{title}</MessageBarTitle>
            {intl.formatMessage({ id: 'signflow.connections.error' })}
          </MessageBarBody>
        </MessageBar>
      )}
      {blockers.length > 0 && (
        <ul id={reasonsId} className={styles.reasons}>
          {blockers.map((blocker) => (
            <li key={blocker}>
              <Caption1>{intl.formatMessage({ id: BLOCKER_TEXTS[blocker] })}</Caption1>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <Button
          type="submit"
          appearance="primary"
          className={styles.button}
          disabledFocusable={isSaving || blockers.length > 0}
          aria-describedby={blockers.length > 0 ? reasonsId : undefined}
        >
          {isSaving
            ? intl.formatMessage({ id: 'signflow.saving' })
            : intl.formatMessage({
                id: context.mode === 'new' ? 'signflow.new.submit' : 'signflow.edit.submit',
              })}
        </Button>
        <Button
          className={styles.button}
          disabledFocusable={isSaving}
          onClick={() => send({ type: 'form.cancel' })}
        >
          {intl.formatMessage({ id: 'signflow.cancel' })}
        </Button>
      </div>
    </form>
  );
}
