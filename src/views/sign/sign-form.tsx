// The sign form (spec 001 §2 "Sign screen", §5): the document block, the smart cards, the location with
// its locate-me button, the optional reason, where the signature goes (placed by the owner signing alone,
// or previewed in a sign flow), the error alert and the cancel / continue buttons, with the document's
// pages beside it on wide screens. It shows the signing actor's context and sends its events; the
// validation itself is the machine's (signing-rules.ts).
import { useDeferredValue } from 'react';
import {
  Button,
  Caption1,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Radio,
  RadioGroup,
  Spinner,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Eye20Regular, Location20Regular, Signature20Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import {
  afterPageProblem,
  isReasonTooLong,
  locationProblem,
  offersPlacement,
  type LocationProblem,
  type SignatureMode,
  type SignaturePosition,
} from '../../../machines/signing-rules';
import type { signingMachine } from '../../../machines/signing.machine';
import type { MessageId } from '../../i18n/messages';
import { Busy } from '../busy';
import { PageImages } from '../document/page-images';
import { PagesUnavailable } from '../document/pages-unavailable';
import { truncateName } from '../format';
import { FULL_TABLE_QUERY, useMediaQuery } from '../use-media-query';
import { DocumentBlock } from './document-block';
import { SmartCardList } from './smart-card-list';

export type SigningActor = ActorRefFrom<typeof signingMachine>;

const useStyles = makeStyles({
  layout: { display: 'flex', gap: tokens.spacingHorizontalXXL, alignItems: 'flex-start', minWidth: 0 },
  form: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    flex: '1 1 520px',
    maxWidth: '640px',
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
  pages: {
    flex: '1 1 400px',
    minWidth: 0,
    maxWidth: '720px',
    position: 'sticky',
    top: tokens.spacingVerticalL,
  },
  locationRow: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'flex-start',
    flexWrap: 'wrap',
  },
  locationInput: { flex: '1 1 200px', minHeight: '40px' },
  input: { minHeight: '40px' },
  pageNumber: { width: '96px', minHeight: '40px' },
  inline: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'center' },
  button: { minHeight: '40px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

const LOCATION_MESSAGES: Record<LocationProblem, MessageId> = {
  empty: 'documents.sign.location.validation-empty',
  tooShort: 'documents.sign.location.validation-length',
  tooLong: 'documents.sign.location.validation-max',
};

function LocationField({ signing }: { signing: SigningActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const location = useSelector(signing, (snapshot) => snapshot.context.location);
  const isValidationShown = useSelector(signing, (snapshot) => snapshot.context.isValidationShown);
  const isLocating = useSelector(signing, (snapshot) => snapshot.matches({ editing: 'locating' }));
  const isLocateFailed = useSelector(signing, (snapshot) => snapshot.matches({ editing: 'locateFailed' }));
  const problem = locationProblem(location);
  // An empty or short location is said once the user tries to continue; one too long at once.
  const shownProblem = problem === 'tooLong' || isValidationShown ? problem : null;
  // A failed lookup on an empty field keeps saying so after Continue (spec 001: "Your location could not
  // be found. Please type it in." already asks for what "must be filled in" would).
  const isLookupMessageFirst = isLocateFailed && (shownProblem === null || shownProblem === 'empty');
  const message = isLookupMessageFirst
    ? intl.formatMessage({ id: 'documents.sign.location.error-fetching' })
    : shownProblem
      ? intl.formatMessage({ id: LOCATION_MESSAGES[shownProblem] })
      : null;
  return (
    <Field
      label={intl.formatMessage({ id: 'documents.sign.location.label' })}
      required
      validationState={shownProblem ? 'error' : isLocateFailed ? 'warning' : 'none'}
      validationMessage={message}
    >
      {(fieldProps) => (
        <div className={styles.locationRow}>
          <Input
            {...fieldProps}
            className={styles.locationInput}
            value={location}
            autoComplete="address-level2"
            onChange={(_event, data) => signing.send({ type: 'location.changed', location: data.value })}
          />
          <Button
            className={styles.button}
            icon={isLocating ? <Spinner size="tiny" /> : <Location20Regular />}
            disabledFocusable={isLocating}
            onClick={() => signing.send({ type: 'location.locate' })}
          >
            {intl.formatMessage({
              id: isLocating ? 'documents.sign.location.locating' : 'documents.sign.location.locate',
            })}
          </Button>
        </div>
      )}
    </Field>
  );
}

function PlacementChoice({ signing, documentId }: { signing: SigningActor; documentId: string }) {
  const styles = useStyles();
  const intl = useIntl();
  const context = useSelector(signing, (snapshot) => snapshot.context);
  const isNotPlaced = useSelector(signing, (snapshot) => snapshot.matches({ editing: 'notPlaced' }));
  const afterProblem = afterPageProblem(context);
  const placementHref = `/sign/${encodeURIComponent(documentId)}/signature`;
  return (
    <section className={styles.section} aria-labelledby="sign-placement-title">
      <Text as="h2" id="sign-placement-title" size={400} weight="semibold">
        {intl.formatMessage({ id: 'documents.sign.placement.label' })}
      </Text>
      <RadioGroup
        aria-labelledby="sign-placement-title"
        value={context.signatureMode}
        onChange={(_event, data) => signing.send({ type: 'mode.changed', mode: data.value as SignatureMode })}
      >
        <Radio value="inline" label={intl.formatMessage({ id: 'documents.sign.placement.inline' })} />
        <Radio value="page" label={intl.formatMessage({ id: 'documents.sign.placement.page' })} />
      </RadioGroup>
      {context.signatureMode === 'inline' ? (
        <div className={styles.inline}>
          <Link href={placementHref} asChild>
            <Button as="a" className={styles.button} icon={<Signature20Regular />}>
              {intl.formatMessage({
                id: context.placement ? 'documents.sign.placement.move' : 'documents.sign.placement.place',
              })}
            </Button>
          </Link>
          <Text className={isNotPlaced ? undefined : styles.muted}>
            {context.placement
              ? intl.formatMessage(
                  { id: 'documents.sign.placement.placed' },
                  { page: context.placement.pageNumber },
                )
              : intl.formatMessage({ id: 'documents.sign.placement.notPlaced' })}
          </Text>
        </div>
      ) : (
        <Field label={intl.formatMessage({ id: 'documents.sign.placement.position.label' })}>
          <RadioGroup
            value={context.pagePosition}
            onChange={(_event, data) =>
              signing.send({ type: 'pagePosition.changed', position: data.value as SignaturePosition })
            }
          >
            <Radio
              value="first"
              label={intl.formatMessage({ id: 'documents.sign.placement.position.first' })}
            />
            <Radio
              value="after"
              label={intl.formatMessage({ id: 'documents.sign.placement.position.after' })}
            />
            <Radio
              value="last"
              label={intl.formatMessage({ id: 'documents.sign.placement.position.last' })}
            />
          </RadioGroup>
        </Field>
      )}
      {context.signatureMode === 'page' && context.pagePosition === 'after' && (
        <Field
          label={intl.formatMessage({ id: 'documents.sign.placement.afterPage.label' })}
          validationState={afterProblem && context.isValidationShown ? 'error' : 'none'}
          validationMessage={
            afterProblem && context.isValidationShown
              ? intl.formatMessage({ id: 'documents.sign.placement.afterPage.validation' })
              : null
          }
        >
          <Input
            className={styles.pageNumber}
            type="number"
            min={1}
            inputMode="numeric"
            value={context.afterPageText}
            onChange={(_event, data) => signing.send({ type: 'afterPage.changed', text: data.value })}
          />
        </Field>
      )}
    </section>
  );
}

function ErrorAlert({ signing }: { signing: SigningActor }) {
  const intl = useIntl();
  const isSignFailed = useSelector(signing, (snapshot) => snapshot.matches({ editing: 'signFailed' }));
  const isNotPlaced = useSelector(signing, (snapshot) => snapshot.matches({ editing: 'notPlaced' }));
  const messages = useSelector(signing, (snapshot) => snapshot.context.errorMessages);
  if (!isSignFailed && !isNotPlaced) return null;
  const text = isNotPlaced
    ? intl.formatMessage({ id: 'documents.sign.error-not-placed-signature' })
    : messages.length > 0
      ? messages.join(' ')
      : intl.formatMessage({ id: 'documents.sign.error-signing' });
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>{text}</MessageBarBody>
    </MessageBar>
  );
}

function LoadFailed({ signing }: { signing: SigningActor }) {
  const styles = useStyles();
  const intl = useIntl();
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>{intl.formatMessage({ id: 'documents.sign.error-loading' })}</MessageBarBody>
      <MessageBarActions>
        <Button className={styles.button} onClick={() => signing.send({ type: 'screen.retry' })}>
          {intl.formatMessage({ id: 'common.retry' })}
        </Button>
        <Button className={styles.button} onClick={() => signing.send({ type: 'form.cancel' })}>
          {intl.formatMessage({ id: 'common.cancel' })}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

export function SignForm({ signing, documentId }: { signing: SigningActor; documentId: string }) {
  const styles = useStyles();
  const intl = useIntl();
  const isWide = useMediaQuery(FULL_TABLE_QUERY);
  const context = useSelector(signing, (snapshot) => snapshot.context);
  // The form's first render comes in the background, in slices, while the heading and the loading
  // state stay: an actor's change renders at once and whole, which on a slow phone blocks the page.
  const phase = useDeferredValue(
    useSelector(signing, (snapshot) => {
      // `left` is the moment before the route changes (cancel, a user who cannot sign, a confirmation).
      if (snapshot.matches('loading') || snapshot.matches('left')) return 'loading';
      return snapshot.matches('loadFailed') ? 'loadFailed' : 'form';
    }),
  );
  const isSubmitting = useSelector(signing, (snapshot) => snapshot.matches('submitting'));
  const isEditing = useSelector(signing, (snapshot) => snapshot.matches('editing'));
  const title = <Title2 as="h1">{intl.formatMessage({ id: 'documents.sign.title' })}</Title2>;

  // The heading is there from the first paint, so the screen says what it is while it loads and does not
  // move when the form arrives.
  if (phase === 'loading') {
    return (
      <div className={styles.form}>
        {title}
        <Busy label={intl.formatMessage({ id: 'documents.sign.loading' })} />
      </div>
    );
  }
  const { document } = context;
  if (phase === 'loadFailed' || document === null) {
    return (
      <div className={styles.form}>
        {title}
        <LoadFailed signing={signing} />
      </div>
    );
  }
  const cardProblem =
    context.isValidationShown && !context.smartCards.some((card) => card.id === context.cardId)
      ? intl.formatMessage({ id: 'documents.sign.cards.validation' })
      : null;
  const reasonProblem = isReasonTooLong(context.reason)
    ? intl.formatMessage({ id: 'documents.sign.reason.validation' })
    : null;
  const pageUrls = document.attributes.publicImagesFileUrls;
  return (
    <div className={styles.layout}>
      <form
        className={styles.form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          signing.send({ type: 'sign.submit' });
        }}
      >
        {title}
        <section className={styles.section} aria-labelledby="sign-document-title">
          <Text as="h2" id="sign-document-title" size={400} weight="semibold">
            {intl.formatMessage({ id: 'documents.sign.document.label' })}
          </Text>
          <DocumentBlock document={document} />
          <PagesUnavailable pages={document.attributes.unavailablePages} />
        </section>
        <section className={styles.section}>
          <SmartCardList
            cards={context.smartCards}
            cardId={context.cardId}
            validationMessage={cardProblem}
            onChange={(cardId) => signing.send({ type: 'card.changed', cardId })}
          />
          <LocationField signing={signing} />
          <Field
            label={intl.formatMessage({ id: 'documents.sign.reason.label' })}
            validationState={reasonProblem ? 'error' : 'none'}
            validationMessage={reasonProblem}
          >
            <Input
              className={styles.input}
              value={context.reason}
              onChange={(_event, data) => signing.send({ type: 'reason.changed', reason: data.value })}
            />
          </Field>
        </section>
        {offersPlacement(context) && <PlacementChoice signing={signing} documentId={documentId} />}
        {!offersPlacement(context) && context.assignedPlacement && (
          <div className={styles.inline}>
            <Link href={`/sign/${encodeURIComponent(documentId)}/signature-preview`} asChild>
              <Button as="a" className={styles.button} icon={<Eye20Regular />}>
                {intl.formatMessage({ id: 'documents.sign.preview.button' })}
              </Button>
            </Link>
            <Caption1 className={styles.muted}>
              {intl.formatMessage(
                { id: 'documents.sign.preview.text' },
                { page: context.assignedPlacement.pageNumber },
              )}
            </Caption1>
          </div>
        )}
        <ErrorAlert signing={signing} />
        <div className={styles.actions}>
          <Button
            className={styles.button}
            type="button"
            onClick={() => signing.send({ type: 'form.cancel' })}
            disabledFocusable={!isEditing}
          >
            {intl.formatMessage({ id: 'common.cancel' })}
          </Button>
          <Button
            className={styles.button}
            appearance="primary"
            type="submit"
            disabledFocusable={!isEditing}
            icon={isSubmitting ? <Spinner size="tiny" /> : undefined}
          >
            {intl.formatMessage({ id: isSubmitting ? 'documents.sign.sending' : 'documents.sign.continue' })}
          </Button>
        </div>
      </form>
      {isWide && pageUrls.length > 0 && (
        <aside className={styles.pages} aria-label={intl.formatMessage({ id: 'document.viewer.label' })}>
          <PageImages urls={pageUrls} name={truncateName(document.attributes.originalFilename)} />
        </aside>
      )}
    </div>
  );
}
