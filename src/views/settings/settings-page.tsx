// /app/settings (spec 001 §2 "Settings"): the interface language and the default signing location, with
// Save and Cancel. Everything shown comes from the settings actor; the view only sends what the user
// does. Each language is named in itself, so a user who cannot read the current one still finds theirs.
// The language field starts from the language on screen (which this device may have chosen, unlike the
// profile); a choice there is part of the form: it applies on Save and Cancel drops it (spec 001 §4).
// The sidebar's selector still applies at once; the form hears of it (docs/decisions.md).
import { useEffect, type FormEvent } from 'react';
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import { isLocationTooLong, type settingsMachine } from '../../../machines/settings.machine';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { Busy } from '../busy';
import { LanguageSelect, useShownLocale } from '../language-select';
import { ThemeSelect } from './theme-select';

export type SettingsLogic = typeof settingsMachine;
type SettingsActor = ActorRefFrom<SettingsLogic>;

const useStyles = makeStyles({
  page: {
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    width: '100%',
    maxWidth: '560px',
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  buttons: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  button: { minHeight: '40px', minWidth: '96px' },
});

function LoadFailed({ actor }: { actor: SettingsActor }) {
  const styles = useStyles();
  const intl = useIntl();
  return (
    <>
      <MessageBar intent="error" layout="multiline" role="alert">
        <MessageBarBody>{intl.formatMessage({ id: 'settings.load-error' })}</MessageBarBody>
      </MessageBar>
      <div className={styles.buttons}>
        <Button
          appearance="primary"
          className={styles.button}
          onClick={() => actor.send({ type: 'settings.retry' })}
        >
          {intl.formatMessage({ id: 'settings.retry' })}
        </Button>
        <Button className={styles.button} onClick={() => actor.send({ type: 'settings.cancel' })}>
          {intl.formatMessage({ id: 'settings.cancel' })}
        </Button>
      </div>
    </>
  );
}

function SettingsForm({ actor }: { actor: SettingsActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const locale = useSelector(actor, (snapshot) => snapshot.context.locale);
  const location = useSelector(actor, (snapshot) => snapshot.context.location);
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const isSaved = useSelector(actor, (snapshot) => snapshot.matches({ editing: 'saved' }));
  const isFailed = useSelector(actor, (snapshot) => snapshot.matches({ editing: 'failed' }));
  const canSave = useSelector(actor, (snapshot) => snapshot.can({ type: 'settings.save' }));
  const isTooLong = isLocationTooLong(location);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'settings.save' });
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <LanguageSelect
        label={intl.formatMessage({ id: 'settings.language.label' })}
        hint={intl.formatMessage({ id: 'settings.language.hint' })}
        value={locale}
        disabled={isSaving}
        onChange={(chosen) => actor.send({ type: 'locale.changed', locale: chosen })}
      />
      <Field
        label={intl.formatMessage({ id: 'settings.location.label' })}
        hint={intl.formatMessage({ id: 'settings.location.hint' })}
        validationState={isTooLong ? 'error' : 'none'}
        validationMessage={
          isTooLong ? intl.formatMessage({ id: 'settings.location.validation-length' }) : undefined
        }
      >
        <Input
          value={location}
          disabled={isSaving}
          autoComplete="address-level2"
          onChange={(_event, data) => actor.send({ type: 'location.changed', location: data.value })}
        />
      </Field>
      <ThemeSelect />
      {isSaved && (
        <MessageBar intent="success" layout="multiline" role="status">
          <MessageBarBody>{intl.formatMessage({ id: 'settings.success-message' })}</MessageBarBody>
        </MessageBar>
      )}
      {isFailed && (
        <MessageBar intent="error" layout="multiline" role="alert">
          <MessageBarBody>{intl.formatMessage({ id: 'settings.error-message' })}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.buttons}>
        <Button
          type="submit"
          appearance="primary"
          className={styles.button}
          disabledFocusable={!canSave}
          icon={isSaving ? <Spinner size="extra-tiny" /> : undefined}
          aria-busy={isSaving}
        >
          {intl.formatMessage({ id: isSaving ? 'settings.saving' : 'settings.save' })}
        </Button>
        <Button
          className={styles.button}
          disabledFocusable={isSaving}
          onClick={() => actor.send({ type: 'settings.cancel' })}
        >
          {intl.formatMessage({ id: 'settings.cancel' })}
        </Button>
      </div>
    </form>
  );
}

export function SettingsPage({ logic }: { logic: SettingsLogic }) {
  const styles = useStyles();
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'settings.title' }));
  const onScreen = useShownLocale();
  const actor = useActorRef(logic, actorOptions({ input: { shownLocale: onScreen } }));
  // The sidebar's selector still applies at once: the form hears of it (it follows when untouched).
  useEffect(() => {
    if (actor.getSnapshot().status === 'active') actor.send({ type: 'locale.shown', locale: onScreen });
  }, [actor, onScreen]);
  const phase = useSelector(actor, (snapshot) =>
    snapshot.matches('loading') ? 'loading' : snapshot.matches('loadFailed') ? 'loadFailed' : 'form',
  );
  if (phase === 'loading') return <Busy label={intl.formatMessage({ id: 'settings.loading' })} />;
  return (
    <div className={styles.page}>
      <Title2 as="h1">{intl.formatMessage({ id: 'settings.title' })}</Title2>
      {phase === 'loadFailed' ? <LoadFailed actor={actor} /> : <SettingsForm actor={actor} />}
    </div>
  );
}
