// Browser effects that follow a screen's actor, composed here so the screens' views import no service:
// a mobile wrapper told the location of each sign request, and a sign flow draft kept when the session
// ends under it (the form's state is read at that moment, never copied into another actor).
import { useEffect } from 'react';
import type { AnyActorRef } from 'xstate';
import { draftOf, type SignFlowFormContext } from '../../machines/sign-flow-form.machine';
import { onUnauthorized } from '../api/client';
import { watchSigningLocation } from '../services/mobile-wrapper';
import { storeDraft } from '../services/sign-flow-form';

export function useSigningLocationForWrapper(signing: Parameters<typeof watchSigningLocation>[0]): void {
  useEffect(() => watchSigningLocation(signing), [signing]);
}

type FormActor = Pick<AnyActorRef, 'getSnapshot'>;

/** A 401 while the form is being edited or saved keeps its draft, which the next sign-in restores. */
export function useDraftKeptOnSignOut(form: FormActor): void {
  useEffect(
    () =>
      onUnauthorized(() => {
        const snapshot = form.getSnapshot() as {
          matches: (state: string) => boolean;
          context: SignFlowFormContext;
        };
        if (snapshot.matches('editing') || snapshot.matches('saving')) {
          storeDraft(snapshot.context.documentId, draftOf(snapshot.context));
        }
      }),
    [form],
  );
}
