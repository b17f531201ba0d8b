// /app/settings (spec 001 §2 "Settings"): the interface language and the default signing location, with
// Save and Cancel. Everything shown comes from the settings actor; the view only sends what the user
// does. Each language is named in itself, so a user who cannot read the current one still finds theirs.
import type { FormEvent } from 'react';
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Select,
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
import { isLocale, LOCALES } from '../../i18n/locale';
import type { MessageId } from '../../i18n/messages';
import { Busy } from '../busy';
import { ThemeSelect } from './theme-select';

export type SettingsLogic = typeof settingsMachine;
type SettingsActor = ActorRefFrom<SettingsLogic>;

const LANGUAGE_NAMES: Record<(typeof LOCALES)[number], MessageId> = {
  en: 'common.language.en',
  es: 'common.language.es',
  fr: 'common.language.fr',
};

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
      <Field label={intl.formatMessage({ id: 'settings.language.label' })}>
        <Select
          value={locale}
          disabled={isSaving}
          onChange={(_event, data) => {
            if (isLocale(data.value)) actor.send({ type: 'locale.changed', locale: data.value });
          }}
        >
          {LOCALES.map((option) => (
            <option key={option} value={option} lang={option}>
              {intl.formatMessage({ id: LANGUAGE_NAMES[option] })}
            </option>
          ))}
        </Select>
      </Field>
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
          disabled={!canSave}
          icon={isSaving ? <Spinner size="extra-tiny" /> : undefined}
          aria-busy={isSaving}
        >
          {intl.formatMessage({ id: isSaving ? 'settings.saving' : 'settings.save' })}
        </Button>
        <Button
          className={styles.button}
          disabled={isSaving}
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
  const actor = useActorRef(logic, actorOptions({}));
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
