// Smart card levels (spec 000 §3, spec 001 §2): the level shown with a signature and on the card list.
import type { components } from '../../openapi/schema';

export type SmartCardType = components['schemas']['SmartCardType'];

export const SMART_CARD_TYPES = [
  'personal_level0',
  'personal_level1',
  'personal_level2',
  'personal_level3',
  'personal_level4',
  'business_level3',
  'business_level4',
  'default',
] as const satisfies readonly SmartCardType[];
