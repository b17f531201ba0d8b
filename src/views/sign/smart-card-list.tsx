// The smart card choice (spec 001 §2, §9): one radio per card with its level's icon and name, the
// description cut at 35 characters (the whole text in the title).
import { Caption1, Field, Radio, RadioGroup, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Building20Regular, Person20Regular, ShieldCheckmark20Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import { shortDescription, type SmartCard, type SmartCardType } from '../../../machines/signing-rules';

const useStyles = makeStyles({
  label: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  icon: { flexShrink: 0, color: tokens.colorBrandForeground1 },
  business: { color: tokens.colorPaletteDarkOrangeForeground1 },
  level: {
    padding: `0 ${tokens.spacingHorizontalXS}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
  },
  radio: { minHeight: '40px' },
});

function LevelIcon({ type }: { type: SmartCardType }) {
  const styles = useStyles();
  if (type.startsWith('business_')) return <Building20Regular aria-hidden className={styles.business} />;
  if (type.startsWith('personal_')) return <Person20Regular aria-hidden className={styles.icon} />;
  return <ShieldCheckmark20Regular aria-hidden className={styles.icon} />;
}

export function SmartCardList({
  cards,
  cardId,
  validationMessage,
  onChange,
}: {
  cards: SmartCard[];
  cardId: string | null;
  validationMessage: string | null;
  onChange(cardId: string): void;
}) {
  const styles = useStyles();
  const intl = useIntl();
  const label = intl.formatMessage({ id: 'documents.sign.cards.label' });
  if (cards.length === 0) {
    return (
      <Field label={label} validationState="error" validationMessage={validationMessage}>
        <Text>{intl.formatMessage({ id: 'documents.sign.cards.empty' })}</Text>
      </Field>
    );
  }
  return (
    <Field
      label={label}
      required
      validationState={validationMessage ? 'error' : 'none'}
      validationMessage={validationMessage}
    >
      <RadioGroup value={cardId ?? ''} onChange={(_event, data) => onChange(data.value)}>
        {cards.map((card) => (
          <Radio
            key={card.id}
            className={styles.radio}
            value={card.id}
            label={
              <span className={styles.label} title={card.description}>
                <LevelIcon type={card.smartCardType} />
                <Text>{shortDescription(card.description)}</Text>
                {/* Keeps the two apart in the radio's accessible name; a flex row shows no space. */}{' '}
                <Caption1 className={styles.level}>
                  {intl.formatMessage({ id: `documents.sign.cards.level.${card.smartCardType}` })}
                </Caption1>
              </span>
            }
          />
        ))}
      </RadioGroup>
    </Field>
  );
}
