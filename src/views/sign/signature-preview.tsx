// /app/sign/{id}/signature-preview (spec 001 §2): the page the sign flow's owner placed this signatory's
// signature on, with the box drawn over it. Read-only, so plain CSS over the server's page image does
// (no canvas): the box is a fixed share of the page (sign-flow-draft.ts), placed by its top-left corner.
import {
  Button,
  MessageBar,
  MessageBarBody,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeft20Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import { SIGNATURE_BOX } from '../../../machines/sign-flow-draft';
import type { PagePlacement } from '../../../machines/signing-rules';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  page: {
    position: 'relative',
    width: '100%',
    maxWidth: '900px',
    boxShadow: tokens.shadow4,
    lineHeight: 0,
  },
  image: { display: 'block', width: '100%', height: 'auto' },
  box: {
    position: 'absolute',
    boxSizing: 'border-box',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    // The box lies on the page image, white in both themes: static brand colours keep it readable there.
    border: `2px dashed ${tokens.colorBrandBackgroundStatic}`,
    backgroundColor: 'rgba(15, 108, 189, 0.12)',
    color: tokens.colorBrandBackground3Static,
    lineHeight: tokens.lineHeightBase300,
    fontWeight: tokens.fontWeightSemibold,
    textAlign: 'center',
  },
  button: { minHeight: '40px' },
});

/** A fraction as a CSS percentage, without floating-point noise ("28%", not "28.000000000000004%"). */
function percentOf(fraction: number): string {
  return `${Math.round(fraction * 10_000) / 100}%`;
}

export function SignaturePreview({
  placement,
  pageUrls,
  onBack,
}: {
  placement: PagePlacement | null;
  pageUrls: string[];
  onBack(): void;
}) {
  const styles = useStyles();
  const intl = useIntl();
  const url = placement ? pageUrls[placement.pageNumber - 1] : undefined;
  return (
    <div className={styles.root}>
      <div className={styles.toolbar}>
        <Button className={styles.button} icon={<ArrowLeft20Regular />} onClick={onBack}>
          {intl.formatMessage({ id: 'documents.sign.preview.back' })}
        </Button>
        <Title2 as="h1">{intl.formatMessage({ id: 'documents.sign.preview.title' })}</Title2>
      </div>
      {placement && url !== undefined ? (
        <>
          <Text>
            {intl.formatMessage({ id: 'documents.sign.preview.text' }, { page: placement.pageNumber })}
          </Text>
          <figure className={styles.page} style={{ margin: 0 }}>
            <img
              className={styles.image}
              src={url}
              alt={intl.formatMessage({ id: 'documents.sign.preview.image' }, { page: placement.pageNumber })}
            />
            <div
              className={styles.box}
              data-testid="signature-box"
              style={{
                left: percentOf(placement.left),
                top: percentOf(placement.top),
                width: percentOf(SIGNATURE_BOX.width),
                // Both sides are fractions of the page width (spec 001 §9), as on the signed PDF.
                aspectRatio: `${SIGNATURE_BOX.width} / ${SIGNATURE_BOX.height}`,
              }}
            >
              {intl.formatMessage({ id: 'documents.sign.preview.box' })}
            </div>
          </figure>
        </>
      ) : (
        <MessageBar intent="info">
          <MessageBarBody>{intl.formatMessage({ id: 'documents.sign.preview.unavailable' })}</MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}
