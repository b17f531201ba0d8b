// The sign screen's real actors: the screen's load (the document, the smart cards and, in a sign flow, the
// signatory's assigned place), the sign call, and the confirmation's poll, resend and tab visibility.
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { FetchVersionInput } from '../../machines/sign-confirmation.machine';
import type {
  DocumentVersionState,
  LoadSignScreenInput,
  PagePlacement,
  PendingSignature,
  SignDocumentInput,
  SignScreenData,
} from '../../machines/signing-rules';
import type { components } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { ApiError, errorFromResponse, isAbort, networkError } from '../api/errors';
import { readDocument } from './documents';
import { takeEarlySignFlow, takeEarlySmartCards } from './early-start';

type SignFlowResponse = components['schemas']['SignFlowResponse'];

/** A refused sign call, with the server's `validations.base` sentences (spec 001 §8: shown joined). */
export class SignRefusal extends ApiError {
  readonly messages: string[];

  constructor(error: ApiError, messages: string[]) {
    super(error);
    this.name = 'SignRefusal';
    this.messages = messages;
  }
}

function baseValidationsOf(body: unknown): string[] {
  if (typeof body !== 'object' || body === null || !('validations' in body)) return [];
  const { validations } = body as { validations: unknown };
  if (typeof validations !== 'object' || validations === null || !('base' in validations)) return [];
  const { base } = validations as { base: unknown };
  return Array.isArray(base) ? base.filter((item): item is string => typeof item === 'string') : [];
}

/** The signatory's own box in the flow (the owner placed it), matched by e-mail address. */
export function assignedPlacementOf(flow: SignFlowResponse, emailAddress: string): PagePlacement | null {
  const address = emailAddress.trim().toLowerCase();
  for (const resource of flow.included) {
    if (resource.type !== 'signatureCoordinates') continue;
    const { attributes } = resource;
    if (attributes.emailAddress.toLowerCase() !== address) continue;
    return {
      pageNumber: attributes.signPageNumber,
      left: Number(attributes.left),
      top: Number(attributes.top),
    };
  }
  return null;
}

export const loadSignScreen = fromPromise<SignScreenData, LoadSignScreenInput>(async ({ input, signal }) => {
  // A sign link opened cold: src/app/early-start-script.js asked for these before the bundle arrived.
  const earlyCards = takeEarlySmartCards();
  const earlyFlow = takeEarlySignFlow(input.documentId);
  const [document, cards] = await Promise.all([
    readDocument(input.documentId),
    unwrap(api.GET('/smart_cards', { signal, ...(earlyCards ? { fetch: () => earlyCards } : {}) })),
  ]);
  const flow = document.attributes.isSignFlow
    ? await unwrap(
        api.GET('/documents/{id}/sign_flow', {
          params: { path: { id: input.documentId } },
          signal,
          // The early answer when there is one; else (never asked, or failed early) the request as usual.
          ...(earlyFlow
            ? { fetch: async (request: Request) => (await earlyFlow.catch(() => null)) ?? fetch(request) }
            : {}),
        }),
      )
    : null;
  return {
    document,
    smartCards: cards.data.map((card) => ({ id: card.id, ...card.attributes })),
    assignedPlacement: flow ? assignedPlacementOf(flow, input.emailAddress) : null,
    flowSignPageNumber: flow ? flow.data.attributes.signPageNumber : null,
  };
});

export const signDocument = fromPromise<PendingSignature, SignDocumentInput>(async ({ input, signal }) => {
  const call = api.PATCH('/documents/{id}/sign', {
    params: { path: { id: input.documentId } },
    body: input.body,
    signal,
  });
  let outcome: Awaited<typeof call>;
  try {
    outcome = await call;
  } catch (error) {
    if (isAbort(error)) throw error;
    throw networkError();
  }
  const { data, error, response } = outcome;
  if (!response.ok || error !== undefined || data === undefined) {
    throw new SignRefusal(errorFromResponse(response.status, error), baseValidationsOf(error));
  }
  return { versionId: data.data.id, confirmationUrl: data.data.attributes.confirmationUrl };
});

export const fetchVersion = fromPromise<DocumentVersionState, FetchVersionInput>(
  async ({ input, signal }) => {
    const body = await unwrap(
      api.GET('/document_versions/{id}', { params: { path: { id: input.versionId } }, signal }),
    );
    return body.data.attributes.state;
  },
);

export const resendNotification = fromPromise<void, FetchVersionInput>(async ({ input, signal }) => {
  await unwrap(
    api.POST('/document_versions/{id}/resend_notification', {
      params: { path: { id: input.versionId } },
      signal,
    }),
  );
});

/** Tells the confirmation whether the tab is shown (spec 000 §4: no polling while it is hidden). */
export const watchVisibility = fromCallback<EventObject>(({ sendBack }) => {
  const report = () =>
    sendBack({ type: document.visibilityState === 'hidden' ? 'visibility.hidden' : 'visibility.visible' });
  if (document.visibilityState === 'hidden') report();
  document.addEventListener('visibilitychange', report);
  return () => document.removeEventListener('visibilitychange', report);
});
