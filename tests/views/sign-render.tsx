// Renders the sign screen as the route does, with fake actors the test settles: the screen's load, the
// sign call, locate-me, and the confirmation's version poll and resend (the real confirmation machine).
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { signConfirmationMachine, type FetchVersionInput } from '../../machines/sign-confirmation.machine';
import { signingMachine } from '../../machines/signing.machine';
import type {
  DocumentVersionState,
  LoadSignScreenInput,
  PendingSignature,
  SignDocumentInput,
  SignScreenData,
} from '../../machines/signing-rules';
import { sampleOwnSigning } from '../samples/signing';
import { SignScreen, type SignPage } from '../../src/views/sign/sign-screen';
import { controlledPromise } from '../machines/support';
import { renderView } from './render';

export const PENDING: PendingSignature = {
  versionId: 'v1',
  confirmationUrl: 'http://localhost/idp/confirm/v1',
};

export function renderSignScreen({
  data = sampleOwnSigning(),
  load = async () => data,
  sign = async () => PENDING,
  locate = async () => 'Lyon',
  page = 'form',
  defaultLocation = 'London',
}: {
  data?: SignScreenData;
  load?: (input: LoadSignScreenInput) => Promise<SignScreenData>;
  sign?: (input: SignDocumentInput) => Promise<PendingSignature>;
  locate?: () => Promise<string>;
  page?: SignPage;
  defaultLocation?: string;
} = {}) {
  const loadSignScreen = vi.fn(load);
  const signDocument = vi.fn(sign);
  const versions = controlledPromise<DocumentVersionState, FetchVersionInput>();
  const resend = controlledPromise<void, FetchVersionInput>();
  const goToDocument = vi.fn();
  const logic = signingMachine.provide({
    actors: {
      loadSignScreen: fromPromise<SignScreenData, LoadSignScreenInput>(({ input }) => loadSignScreen(input)),
      signDocument: fromPromise<PendingSignature, SignDocumentInput>(({ input }) => signDocument(input)),
      locateMe: fromPromise<string>(() => locate()),
      confirmSignature: signConfirmationMachine.provide({
        actors: {
          fetchVersion: versions.logic,
          resendNotification: resend.logic,
          watchVisibility: fromCallback<EventObject>(() => () => {}),
        },
      }),
    },
    actions: { goToDocument: () => goToDocument(), reportLocationFailure: () => {} },
  });
  const path = page === 'form' ? '/sign/d1' : `/sign/d1/${page}`;
  renderView(
    <SignScreen
      documentId="d1"
      page={page}
      logic={logic}
      self={{ emailAddress: 'ada@paraph.test', fullName: 'Ada Lovelace' }}
      defaultLocation={defaultLocation}
      PlacementPage={null}
    />,
    { path },
  );
  return { user: userEvent.setup(), loadSignScreen, signDocument, versions, resend, goToDocument };
}
