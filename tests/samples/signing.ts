// Representative data for the sign screen's machines (tests/machines/events.ts) and their view tests: plain
// values shaped like the API's answers; no behaviour.
import { sampleDocument } from './index.ts';
import type { SignScreenData, SmartCard } from '../../machines/signing-rules';

export const SAMPLE_SMART_CARDS: SmartCard[] = [
  { id: 'card-1', smartCardType: 'personal_level2', description: 'Ada Lovelace · personal ID card' },
  {
    id: 'card-2',
    smartCardType: 'business_level4',
    description: 'Analytical Engines Ltd. qualified company seal',
  },
];

/** The owner signing a document of their own, outside any sign flow. */
export function sampleOwnSigning(overrides: Partial<SignScreenData> = {}): SignScreenData {
  return {
    document: sampleDocument('d1', {
      state: 'uploaded',
      currentUserCanSign: true,
      publicImagesFileUrls: ['http://localhost/s/d1/1.png', 'http://localhost/s/d1/2.png'],
    }),
    smartCards: SAMPLE_SMART_CARDS,
    assignedPlacement: null,
    flowSignPageNumber: null,
    ...overrides,
  };
}

/** A signatory of a sign flow whose owner placed their signature on page 2. */
export function sampleFlowSigning(overrides: Partial<SignScreenData> = {}): SignScreenData {
  return {
    document: sampleDocument('d1', {
      state: 'awaiting_signs',
      isSignFlow: true,
      isOwner: false,
      creatorFullName: 'Bob Builder',
      creatorEmailAddress: 'bob@paraph.test',
      currentUserCanSign: true,
      currentUserCanCreateSignFlow: false,
      publicImagesFileUrls: ['http://localhost/s/d1/1.png', 'http://localhost/s/d1/2.png'],
    }),
    smartCards: SAMPLE_SMART_CARDS,
    assignedPlacement: { pageNumber: 2, left: 0.5, top: 0.7 },
    flowSignPageNumber: 0,
    ...overrides,
  };
}
