import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { sampleDocument } from '../../machines/samples';
import type { DraftSignatory, Placement } from '../../machines/sign-flow-draft';
import {
  addableSignatories,
  boxAroundPoint,
  clampOnPage,
  firstChoice,
  nudge,
  PAGE_MIDDLE,
  placeSignatory,
  signaturePlacementMachine,
  type PlacementAnnouncedEvent,
} from '../../machines/signature-placement.machine';

const ADA: DraftSignatory = { emailAddress: 'ada@paraph.test', fullName: 'Ada Lovelace', hasSigned: false };
const BOB: DraftSignatory = { emailAddress: 'bob@paraph.test', fullName: null, hasSigned: false };
const CAROL: DraftSignatory = { emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw', hasSigned: true };
const TWO_PAGES = sampleDocument('d1', { publicImagesFileUrls: ['/p/1.png', '/p/2.png'] });

function start(signatories: DraftSignatory[], placements: Placement[] = [], document = TWO_PAGES) {
  const actor = createActor(
    signaturePlacementMachine.provide({ actors: { fetchDocument: fromPromise(async () => document) } }),
    { input: { documentId: 'd1', signatories, placements } },
  );
  const announced: PlacementAnnouncedEvent[] = [];
  actor.on('placement.announced', (event) => announced.push(event));
  actor.start();
  return { actor, announced };
}

async function ready(signatories: DraftSignatory[], placements: Placement[] = []) {
  const started = start(signatories, placements);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(started.actor.getSnapshot().value).toEqual({ ready: 'idle' });
  return started;
}

describe('placement rules', () => {
  it('keeps a box within the spec limits and on the page, with 4 decimals', () => {
    expect(clampOnPage(0.9, 0.05)).toEqual({ left: 0.72, top: 0.15 });
    expect(clampOnPage(-0.2, 0.99)).toEqual({ left: 0, top: 0.85 });
    expect(clampOnPage(0.123456, 0.456789)).toEqual({ left: 0.1235, top: 0.4568 });
  });

  it('centres a clicked box on the pointer', () => {
    expect(boxAroundPoint(0.5, 0.5)).toEqual({ left: 0.36, top: 0.425 });
    expect(PAGE_MIDDLE).toEqual({ left: 0.36, top: 0.425 });
    expect(boxAroundPoint(0.99, 0.01)).toEqual({ left: 0.72, top: 0.15 });
  });

  it('nudges by 1 % and by 5 % with Shift, never past the limits', () => {
    expect(nudge({ left: 0.3, top: 0.5 }, 'right', false)).toEqual({ left: 0.31, top: 0.5 });
    expect(nudge({ left: 0.3, top: 0.5 }, 'up', true)).toEqual({ left: 0.3, top: 0.45 });
    expect(nudge({ left: 0.72, top: 0.15 }, 'right', true)).toEqual({ left: 0.72, top: 0.15 });
    expect(nudge({ left: 0.72, top: 0.15 }, 'up', false)).toEqual({ left: 0.72, top: 0.15 });
  });

  it('offers only signatories who have not signed, unplaced ones first', () => {
    expect(addableSignatories([ADA, CAROL, BOB])).toEqual([ADA, BOB]);
    const adaPlaced = [{ emailAddress: ADA.emailAddress, pageNumber: 1, left: 0, top: 0.2 }];
    expect(firstChoice([CAROL, ADA, BOB], adaPlaced)).toBe(BOB.emailAddress);
    expect(firstChoice([CAROL], [])).toBeNull();
  });

  it('keeps one placement per signatory, in flow order', () => {
    const first = placeSignatory([ADA, BOB], [], {
      emailAddress: BOB.emailAddress,
      pageNumber: 2,
      left: 0,
      top: 0.2,
    });
    const second = placeSignatory([ADA, BOB], first, {
      emailAddress: ADA.emailAddress,
      pageNumber: 1,
      left: 0,
      top: 0.2,
    });
    const moved = placeSignatory([ADA, BOB], second, {
      emailAddress: BOB.emailAddress,
      pageNumber: 1,
      left: 0.5,
      top: 0.5,
    });
    expect(moved.map((placement) => [placement.emailAddress, placement.pageNumber])).toEqual([
      [ADA.emailAddress, 1],
      [BOB.emailAddress, 1],
    ]);
  });
});

describe('signature-placement machine', () => {
  it('leaves at once when there is no signatory', () => {
    const { actor } = start([]);
    expect(actor.getSnapshot().value).toBe('left');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('shows the not-generated notice while images are rendered, the error notice when there are none', async () => {
    const processing = start([ADA], [], sampleDocument('d1', { processing: true, publicImagesFileUrls: [] }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(processing.actor.getSnapshot().value).toBe('processing');
    const none = start([ADA], [], sampleDocument('d1', { state: 'error', publicImagesFileUrls: [] }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(none.actor.getSnapshot().value).toBe('failed');
    expect(none.actor.getSnapshot().context.errorCode).toBe('no_images');
  });

  it('adds where the page was clicked, and adding a placed signatory moves their box', async () => {
    const { actor, announced } = await ready([ADA, BOB]);
    actor.send({ type: 'page.clicked', left: 0.5, top: 0.5 });
    expect(actor.getSnapshot().context.chosenEmail).toBe(ADA.emailAddress);
    actor.send({ type: 'add.confirm' });
    actor.send({ type: 'page.next' });
    actor.send({ type: 'page.clicked', left: 0.2, top: 0.3 });
    expect(actor.getSnapshot().context.chosenEmail).toBe(BOB.emailAddress);
    actor.send({ type: 'signatory.chosen', emailAddress: ADA.emailAddress });
    actor.send({ type: 'add.confirm' });
    expect(actor.getSnapshot().context.placements).toEqual([
      { emailAddress: ADA.emailAddress, pageNumber: 2, left: 0.06, top: 0.225 },
    ]);
    expect(announced.map((event) => event.kind)).toEqual(['placed', 'placed']);
  });

  it('never opens, drags or removes a signed signatory’s box', async () => {
    const carolBox = { emailAddress: CAROL.emailAddress, pageNumber: 1, left: 0.5, top: 0.5 };
    const { actor } = await ready([ADA, CAROL], [carolBox]);
    actor.send({ type: 'box.clicked', emailAddress: CAROL.emailAddress });
    actor.send({ type: 'box.dragStarted', emailAddress: CAROL.emailAddress });
    actor.send({ type: 'placement.removed', emailAddress: CAROL.emailAddress });
    actor.send({ type: 'signatory.chosen', emailAddress: CAROL.emailAddress });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    expect(actor.getSnapshot().context.placements).toEqual([carolBox]);
    expect(actor.getSnapshot().context.chosenEmail).toBe(ADA.emailAddress);
  });

  it('edits a box: another signatory takes it, or it is removed', async () => {
    const adaBox = { emailAddress: ADA.emailAddress, pageNumber: 1, left: 0.1, top: 0.2 };
    const { actor } = await ready([ADA, BOB], [adaBox]);
    actor.send({ type: 'box.clicked', emailAddress: ADA.emailAddress });
    actor.send({ type: 'signatory.chosen', emailAddress: BOB.emailAddress });
    actor.send({ type: 'edit.confirm' });
    expect(actor.getSnapshot().context.placements).toEqual([{ ...adaBox, emailAddress: BOB.emailAddress }]);
    actor.send({ type: 'box.clicked', emailAddress: BOB.emailAddress });
    actor.send({ type: 'edit.remove' });
    expect(actor.getSnapshot().context.placements).toEqual([]);
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
  });

  it('clamps a dropped box and keeps it on its page', async () => {
    const { actor } = await ready(
      [ADA],
      [{ emailAddress: ADA.emailAddress, pageNumber: 2, left: 0.1, top: 0.2 }],
    );
    actor.send({ type: 'box.dragStarted', emailAddress: ADA.emailAddress });
    actor.send({ type: 'box.dropped', emailAddress: ADA.emailAddress, left: 0.95, top: 0.0123 });
    expect(actor.getSnapshot().context.placements).toEqual([
      { emailAddress: ADA.emailAddress, pageNumber: 2, left: 0.72, top: 0.15 },
    ]);
  });

  it('places by keyboard in the middle of the page, moves with arrows and removes with Delete', async () => {
    const { actor, announced } = await ready([ADA, BOB]);
    actor.send({ type: 'page.next' });
    actor.send({ type: 'signatory.chosen', emailAddress: BOB.emailAddress });
    actor.send({ type: 'keyboard.place' });
    actor.send({ type: 'box.nudged', direction: 'right', isLarge: false });
    actor.send({ type: 'box.nudged', direction: 'down', isLarge: true });
    actor.send({ type: 'box.confirmed' });
    expect(actor.getSnapshot().context.placements).toEqual([
      { emailAddress: BOB.emailAddress, pageNumber: 2, left: 0.37, top: 0.475 },
    ]);
    actor.send({ type: 'placement.removed', emailAddress: BOB.emailAddress });
    expect(actor.getSnapshot().context.placements).toEqual([]);
    expect(announced.map((event) => event.kind)).toEqual([
      'placed',
      'moved',
      'moved',
      'confirmed',
      'removed',
    ]);
  });

  it('drops placements of people who are no longer signatories and saves the rest', async () => {
    const { actor } = await ready(
      [ADA],
      [
        { emailAddress: 'gone@paraph.test', pageNumber: 1, left: 0.1, top: 0.2 },
        { emailAddress: ADA.emailAddress, pageNumber: 1, left: 0.9, top: 0.2 },
      ],
    );
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().value).toBe('saved');
    expect(actor.getSnapshot().context.placements).toEqual([
      { emailAddress: ADA.emailAddress, pageNumber: 1, left: 0.72, top: 0.2 },
    ]);
  });
});
