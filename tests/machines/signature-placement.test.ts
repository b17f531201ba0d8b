import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  boxHeightOnPage,
  DEFAULT_PAGE_RATIO,
  findOverlaps,
  placementsOverlap,
} from '../../machines/placement-overlap';
import { sampleDocument } from '../samples';
import type { DraftSignatory, Placement } from '../../machines/sign-flow-draft';
import {
  addableSignatories,
  boxAroundPoint,
  clampOnPage,
  firstChoice,
  nudge,
  overlapsOf,
  PAGE_MIDDLE,
  pageRatioOf,
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

/** Once the document has been read: the machine has left `loading`, for whatever state it leads to. */
async function loaded(actor: ReturnType<typeof start>['actor']): Promise<void> {
  await waitFor(actor, (snapshot) => !snapshot.matches('loading'));
}

async function ready(signatories: DraftSignatory[], placements: Placement[] = []) {
  const started = start(signatories, placements);
  await loaded(started.actor);
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
    await loaded(processing.actor);
    expect(processing.actor.getSnapshot().value).toBe('processing');
    const none = start([ADA], [], sampleDocument('d1', { state: 'error', publicImagesFileUrls: [] }));
    await loaded(none.actor);
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

describe('overlapping boxes', () => {
  const box = (emailAddress: string, left: number, top: number, pageNumber = 1): Placement => ({
    emailAddress,
    pageNumber,
    left,
    top,
  });
  const A4 = DEFAULT_PAGE_RATIO;
  const SQUARE = 1;
  const LANDSCAPE = 210 / 297;

  it('measures the box height in page heights from the page’s shape (15 % of the width)', () => {
    expect(boxHeightOnPage(SQUARE)).toBe(0.15);
    expect(boxHeightOnPage(A4)).toBeCloseTo(0.1061, 4);
    expect(boxHeightOnPage(Number.NaN)).toBe(boxHeightOnPage(A4));
  });

  it('finds boxes that cross on both axes, and only on one page', () => {
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.3, 0.35), A4)).toBe(true);
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.1, 0.3, 2), A4)).toBe(false);
    // Side by side, and one under the other, apart.
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.5, 0.3), A4)).toBe(false);
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.1, 0.5), A4)).toBe(false);
  });

  it('lets boxes touch at an edge', () => {
    // 0.1 + 0.28 is 0.38; in floating point 0.3 - 0.02 is a hair under 0.28.
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.38, 0.3), A4)).toBe(false);
    expect(placementsOverlap(box('a', 0.02, 0.3), box('b', 0.3, 0.3), A4)).toBe(false);
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.3799, 0.3), A4)).toBe(true);
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.1, 0.45), SQUARE)).toBe(false);
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.1, 0.4499), SQUARE)).toBe(true);
    // Corner to corner.
    expect(placementsOverlap(box('a', 0.1, 0.3), box('b', 0.38, 0.45), SQUARE)).toBe(false);
  });

  it('reads the top in page heights: boxes apart on an A4 page overlap on a square one', () => {
    const a = box('a', 0.1, 0.3);
    const b = box('b', 0.1, 0.42);
    expect(placementsOverlap(a, b, A4)).toBe(false);
    expect(placementsOverlap(a, b, SQUARE)).toBe(true);
  });

  it('sees a landscape page’s box where the stamp puts it, kept on the page', () => {
    // The box is 21 % of the height: one at 0.85 is stamped at 0.788, 0.188 under one at 0.6.
    expect(placementsOverlap(box('a', 0.1, 0.85), box('b', 0.1, 0.6), LANDSCAPE)).toBe(true);
    expect(placementsOverlap(box('a', 0.1, 0.85), box('b', 0.1, 0.57), LANDSCAPE)).toBe(false);
  });

  it('names each pair once, in flow order, with its page; a pair of signed boxes is left alone', () => {
    const placements = [box('a', 0.1, 0.3), box('b', 0.2, 0.3), box('c', 0.3, 0.3), box('d', 0.1, 0.3, 2)];
    const ratioOf = () => A4;
    expect(findOverlaps(placements, ratioOf)).toEqual([
      { pageNumber: 1, emailAddresses: ['a', 'b'] },
      { pageNumber: 1, emailAddresses: ['a', 'c'] },
      { pageNumber: 1, emailAddresses: ['b', 'c'] },
    ]);
    const signed = new Set(['a', 'b']);
    expect(findOverlaps(placements, ratioOf, (email) => signed.has(email))).toEqual([
      { pageNumber: 1, emailAddresses: ['a', 'c'] },
      { pageNumber: 1, emailAddresses: ['b', 'c'] },
    ]);
  });

  it('keeps a box dropped onto another where it was put, names both, and saves only once it moves off', async () => {
    const adaBox = box(ADA.emailAddress, 0.1, 0.3);
    const bobBox = box(BOB.emailAddress, 0.5, 0.6);
    const { actor, announced } = await ready([ADA, BOB], [adaBox, bobBox]);
    actor.send({ type: 'box.dragStarted', emailAddress: BOB.emailAddress });
    actor.send({ type: 'box.dropped', emailAddress: BOB.emailAddress, left: 0.2, top: 0.35 });
    const moved = { ...bobBox, left: 0.2, top: 0.35 };
    expect(actor.getSnapshot().context.placements).toEqual([adaBox, moved]);
    expect(announced.at(-1)).toMatchObject({ kind: 'moved', placement: moved });
    expect(overlapsOf(actor.getSnapshot().context)).toEqual([
      { pageNumber: 1, emailAddresses: [ADA.emailAddress, BOB.emailAddress] },
    ]);

    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    expect(actor.getSnapshot().context.placements).toEqual([adaBox, moved]);

    // Moved off by the keyboard, to the right edge of Ada's box: touching is allowed.
    actor.send({ type: 'box.selected', emailAddress: BOB.emailAddress });
    for (let step = 0; step < 18; step += 1) {
      actor.send({ type: 'box.nudged', direction: 'right', isLarge: false });
    }
    expect(actor.getSnapshot().context.placements[1]).toMatchObject({ left: 0.38, top: 0.35 });
    expect(overlapsOf(actor.getSnapshot().context)).toEqual([]);
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().value).toBe('saved');
  });

  it('refuses to save a box placed over a signed signatory’s, and saves two signed ones that overlap', async () => {
    const DAN: DraftSignatory = { emailAddress: 'dan@paraph.test', fullName: 'Dan', hasSigned: true };
    const carolBox = box(CAROL.emailAddress, 0.3, 0.5);
    const danBox = box(DAN.emailAddress, 0.35, 0.55);
    const signedOnly = await ready([CAROL, DAN], [carolBox, danBox]);
    expect(overlapsOf(signedOnly.actor.getSnapshot().context)).toEqual([]);
    signedOnly.actor.send({ type: 'editor.save' });
    expect(signedOnly.actor.getSnapshot().value).toBe('saved');

    const { actor } = await ready([ADA, CAROL], [carolBox]);
    actor.send({ type: 'page.clicked', left: 0.5, top: 0.5 });
    actor.send({ type: 'add.confirm' });
    expect(overlapsOf(actor.getSnapshot().context)).toEqual([
      { pageNumber: 1, emailAddresses: [ADA.emailAddress, CAROL.emailAddress] },
    ]);
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
  });

  it('judges each page by the shape its image has once measured', async () => {
    const adaBox = box(ADA.emailAddress, 0.1, 0.3);
    const bobBox = box(BOB.emailAddress, 0.1, 0.42);
    const { actor } = await ready([ADA, BOB], [adaBox, bobBox]);
    expect(overlapsOf(actor.getSnapshot().context)).toEqual([]);
    // Page 2's shape says nothing about page 1; nor does a page that does not exist or a broken ratio.
    actor.send({ type: 'page.measured', pageNumber: 2, ratio: SQUARE });
    actor.send({ type: 'page.measured', pageNumber: 3, ratio: SQUARE });
    actor.send({ type: 'page.measured', pageNumber: 1, ratio: 0 });
    actor.send({ type: 'page.measured', pageNumber: 1, ratio: Number.POSITIVE_INFINITY });
    expect(actor.getSnapshot().context.pageRatios).toEqual({ 2: SQUARE });
    expect(overlapsOf(actor.getSnapshot().context)).toEqual([]);

    actor.send({ type: 'page.measured', pageNumber: 1, ratio: SQUARE });
    expect(pageRatioOf(actor.getSnapshot().context, 1)).toBe(SQUARE);
    expect(overlapsOf(actor.getSnapshot().context)).toEqual([
      { pageNumber: 1, emailAddresses: [ADA.emailAddress, BOB.emailAddress] },
    ]);
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });

    // An A4 measure is the default: nothing is kept for it.
    actor.send({ type: 'page.measured', pageNumber: 1, ratio: A4 });
    expect(actor.getSnapshot().context.pageRatios).toEqual({ 2: SQUARE });
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().value).toBe('saved');
  });
});
