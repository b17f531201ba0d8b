// The participant search box (spec 001 §2): a combobox whose listbox holds the suggestions of the
// participant-search actor. Focus stays in the box; the highlighted option is named by
// aria-activedescendant, so arrow keys and Enter work with a screen reader as with a mouse.
import { useId } from 'react';
import {
  Caption1,
  Field,
  Input,
  Radio,
  RadioGroup,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import {
  isChoosable,
  suggestionsOf,
  type ParticipantRole,
  type Suggestion,
  type participantSearchMachine,
} from '../../../machines/participant-search.machine';

type SearchActor = ActorRefFrom<typeof participantSearchMachine>;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  roles: { display: 'flex', flexWrap: 'wrap' },
  box: { position: 'relative' },
  input: { width: '100%', minHeight: '40px' },
  listbox: {
    listStyle: 'none',
    margin: `${tokens.spacingVerticalXS} 0 0`,
    padding: tokens.spacingVerticalXS,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow8,
    maxHeight: '320px',
    overflowY: 'auto',
  },
  option: {
    display: 'flex',
    flexDirection: 'column',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'pointer',
    minHeight: '40px',
    justifyContent: 'center',
    overflowWrap: 'anywhere',
  },
  highlighted: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    outline: `2px solid ${tokens.colorBrandStroke1}`,
  },
  unavailable: { cursor: 'default', color: tokens.colorNeutralForegroundDisabled },
  muted: { color: tokens.colorNeutralForeground3 },
});

function useSuggestionText() {
  const intl = useIntl();
  return (suggestion: Suggestion) => {
    const label =
      suggestion.kind === 'self'
        ? intl.formatMessage({ id: 'signflow.search.self' }, { name: suggestion.label })
        : suggestion.kind === 'email'
          ? intl.formatMessage({ id: 'signflow.search.email' }, { email: suggestion.label })
          : suggestion.label;
    // A group offers only the people not added yet: none left means everyone is in already, not "0 people".
    const detail =
      suggestion.kind !== 'group'
        ? suggestion.detail
        : suggestion.people.length === 0
          ? intl.formatMessage({ id: 'signflow.search.groupAllAdded' })
          : intl.formatMessage({ id: 'signflow.search.group' }, { count: suggestion.people.length });
    const mark =
      suggestion.addedAs === 'reviewer'
        ? intl.formatMessage({ id: 'signflow.search.alreadyReviewer' })
        : suggestion.addedAs === 'signatory'
          ? intl.formatMessage({ id: 'signflow.search.alreadySignatory' })
          : null;
    return { label, detail, mark };
  };
}

export function ParticipantSearch({ search }: { search: SearchActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const id = useId();
  const listboxId = `${id}-listbox`;
  const optionId = (key: string) => `${id}-option-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const query = useSelector(search, (snapshot) => snapshot.context.query);
  const role = useSelector(search, (snapshot) => snapshot.context.role);
  const canChangeReviewers = useSelector(search, (snapshot) => snapshot.context.sources.canChangeReviewers);
  const isOpen = useSelector(search, (snapshot) => snapshot.matches('suggesting'));
  const highlightedKey = useSelector(search, (snapshot) => snapshot.context.highlightedKey);
  const suggestions = useSelector(search, (snapshot) => suggestionsOf(snapshot.context));
  const textOf = useSuggestionText();
  const hasHighlight = isOpen && suggestions.some((suggestion) => suggestion.key === highlightedKey);

  return (
    <div className={styles.root}>
      {canChangeReviewers && (
        <Field label={intl.formatMessage({ id: 'signflow.search.role' })}>
          <RadioGroup
            layout="horizontal"
            className={styles.roles}
            value={role}
            onChange={(_event, data) =>
              search.send({ type: 'role.changed', role: data.value as ParticipantRole })
            }
          >
            <Radio value="signatory" label={intl.formatMessage({ id: 'signflow.search.role.signatory' })} />
            <Radio value="reviewer" label={intl.formatMessage({ id: 'signflow.search.role.reviewer' })} />
          </RadioGroup>
        </Field>
      )}
      <div className={styles.box}>
        <Field
          label={intl.formatMessage({ id: 'signflow.search.label' })}
          hint={intl.formatMessage({ id: 'signflow.search.hint' })}
        >
          <Input
            className={styles.input}
            contentBefore={<Search20Regular />}
            placeholder={intl.formatMessage({ id: 'signflow.search.placeholder' })}
            value={query}
            autoComplete="off"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={isOpen}
            aria-controls={listboxId}
            aria-activedescendant={hasHighlight && highlightedKey ? optionId(highlightedKey) : undefined}
            onChange={(_event, data) => search.send({ type: 'query.changed', query: data.value })}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown') {
                event.preventDefault();
                if (!isOpen) search.send({ type: 'query.changed', query });
                else search.send({ type: 'highlight.next' });
              } else if (event.key === 'ArrowUp') {
                event.preventDefault();
                search.send({ type: 'highlight.previous' });
              } else if (event.key === 'Enter') {
                // Enter picks; it never submits the form around the box.
                event.preventDefault();
                search.send({ type: 'suggestion.pick' });
              } else if (event.key === 'Escape' && isOpen) {
                event.preventDefault();
                search.send({ type: 'search.dismiss' });
              }
            }}
            onBlur={() => search.send({ type: 'search.dismiss' })}
          />
        </Field>
        {isOpen && (
          <ul
            id={listboxId}
            role="listbox"
            aria-label={intl.formatMessage({ id: 'signflow.search.suggestions' })}
            className={styles.listbox}
          >
            {suggestions.length === 0 && (
              <li role="presentation" className={styles.option}>
                <Text className={styles.muted}>{intl.formatMessage({ id: 'signflow.search.none' })}</Text>
              </li>
            )}
            {suggestions.map((suggestion) => {
              const { label, detail, mark } = textOf(suggestion);
              const choosable = isChoosable(suggestion);
              const isHighlighted = suggestion.key === highlightedKey;
              return (
                <li
                  key={suggestion.key}
                  id={optionId(suggestion.key)}
                  role="option"
                  aria-selected={isHighlighted}
                  aria-disabled={!choosable || undefined}
                  className={mergeClasses(
                    styles.option,
                    isHighlighted && styles.highlighted,
                    !choosable && styles.unavailable,
                  )}
                  // Keeps the focus in the box, so the pick does not first blur (and dismiss) the list.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    if (choosable) search.send({ type: 'suggestion.pick', key: suggestion.key });
                  }}
                >
                  <Text weight="semibold">{label}</Text>
                  {detail && <Caption1 className={styles.muted}>{detail}</Caption1>}
                  {mark && <Caption1>{mark}</Caption1>}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
