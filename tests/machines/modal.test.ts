import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { MODAL_NAMES, modalMachine, type ModalName } from '../../machines/modal.machine';

// The hooks the shell wires to its own events, recorded in order.
function startModal() {
  const confirmed: string[] = [];
  const changes: (string | null)[] = [];
  const actor = createActor(
    modalMachine.provide({
      actions: {
        announceConfirmed: (_, params) => confirmed.push(params.name),
        announceChange: (_, params) => changes.push(params.name),
      },
    }),
  ).start();
  return { actor, confirmed, changes };
}

describe('modal', () => {
  it('knows every modal the spec names', () => {
    expect(MODAL_NAMES).toHaveLength(14);
  });

  it('opens a known modal by name, closes on Esc, and announces both', () => {
    const { actor, changes } = startModal();
    actor.send({ type: 'modal.open', name: 'delete' });
    expect(actor.getSnapshot().matches({ open: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ name: 'delete', errorCode: null });
    actor.send({ type: 'key.escape' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.name).toBeNull();
    expect(changes).toEqual(['delete', null]);
  });

  it('shows the unknown state for a name that is not a modal', () => {
    const { actor } = startModal();
    actor.send({ type: 'modal.open', name: 'noSuchModal' as ModalName });
    expect(actor.getSnapshot().value).toBe('unknown');
    expect(actor.getSnapshot().context.name).toBe('noSuchModal');
    actor.send({ type: 'modal.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('confirms the confirm, delete and archive dialogs on Enter, and no other', () => {
    const { actor, confirmed } = startModal();
    actor.send({ type: 'modal.open', name: 'deleteMultiple' });
    actor.send({ type: 'key.enter' });
    expect(confirmed).toEqual(['deleteMultiple']);
    expect(actor.getSnapshot().matches('open')).toBe(true);
    actor.send({ type: 'modal.open', name: 'archive' });
    actor.send({ type: 'key.enter' });
    expect(confirmed).toEqual(['deleteMultiple', 'archive']);

    actor.send({ type: 'modal.open', name: 'welcome' });
    expect(actor.getSnapshot().can({ type: 'key.enter' })).toBe(false);
    actor.send({ type: 'key.enter' });
    expect(confirmed).toHaveLength(2);
    actor.send({ type: 'modal.open', name: 'refuse' });
    actor.send({ type: 'key.enter' });
    expect(confirmed).toHaveLength(2);
  });

  it('shows an error code until it is cleared or another modal opens', () => {
    const { actor } = startModal();
    actor.send({ type: 'modal.open', name: 'archive' });
    actor.send({ type: 'modal.error', code: 'internal_error' });
    expect(actor.getSnapshot().matches({ open: 'error' })).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('internal_error');
    actor.send({ type: 'modal.errorCleared' });
    expect(actor.getSnapshot().matches({ open: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBeNull();

    actor.send({ type: 'modal.error', code: 'internal_error' });
    actor.send({ type: 'modal.open', name: 'refuse' });
    expect(actor.getSnapshot().matches({ open: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ name: 'refuse', errorCode: null });
  });
});
