import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { MODAL_NAMES, modalMachine, type ModalEmitted } from '../../machines/modal.machine';

function startModal() {
  const actor = createActor(modalMachine).start();
  const confirmed: ModalEmitted[] = [];
  actor.on('modal.confirmed', (event) => confirmed.push(event));
  return { actor, confirmed };
}

describe('modal', () => {
  it('knows every modal the spec names', () => {
    expect(MODAL_NAMES).toHaveLength(14);
  });

  it('opens a known modal with its props and closes on Esc', () => {
    const { actor } = startModal();
    actor.send({ type: 'modal.open', name: 'delete', props: { documentId: 'd1' } });
    expect(actor.getSnapshot().matches({ open: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context).toEqual({
      name: 'delete',
      props: { documentId: 'd1' },
      errorCode: null,
    });
    actor.send({ type: 'key.escape' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.name).toBeNull();
  });

  it('shows the unknown state for a name that is not a modal', () => {
    const { actor } = startModal();
    actor.send({ type: 'modal.open', name: 'noSuchModal' });
    expect(actor.getSnapshot().value).toBe('unknown');
    expect(actor.getSnapshot().context.name).toBe('noSuchModal');
    actor.send({ type: 'modal.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('confirms the confirm and delete dialogs on Enter, and no other', () => {
    const { actor, confirmed } = startModal();
    actor.send({ type: 'modal.open', name: 'deleteMultiple', props: { ids: ['d1', 'd2'] } });
    actor.send({ type: 'key.enter' });
    expect(confirmed).toEqual([
      { type: 'modal.confirmed', name: 'deleteMultiple', props: { ids: ['d1', 'd2'] } },
    ]);
    expect(actor.getSnapshot().matches('open')).toBe(true);

    actor.send({ type: 'modal.open', name: 'welcome' });
    expect(actor.getSnapshot().can({ type: 'key.enter' })).toBe(false);
    actor.send({ type: 'key.enter' });
    expect(confirmed).toHaveLength(1);
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
    actor.send({ type: 'modal.open', name: 'refuse', props: { documentId: 'd1' } });
    expect(actor.getSnapshot().matches({ open: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context).toEqual({
      name: 'refuse',
      props: { documentId: 'd1' },
      errorCode: null,
    });
  });
});
