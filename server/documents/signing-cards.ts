// Smart cards: the cards a user signs with. Demo accounts get several levels (server/seed.ts);
// every other account gets one personal_level2 card when it is created (sign-up) or when migration 0006
// ran, so every user can sign.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, SmartCardRow } from '../db/schema.ts';
import type { SmartCardType } from '../signing/smart-card-type.ts';

export const DEFAULT_SMART_CARD = { smartCardType: 'personal_level2', description: 'Paraph ID' } as const;

export async function insertSmartCard(
  db: Kysely<Database>,
  input: { userId: string; smartCardType: SmartCardType; description: string; now: Date },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('smart_cards')
    .values({
      id,
      user_id: input.userId,
      smart_card_type: input.smartCardType,
      description: input.description,
      created_at: input.now.toISOString(),
    })
    .execute();
  return id;
}

/** The one card a new account signs with. */
export function issueDefaultSmartCard(
  db: Kysely<Database>,
  userId: string,
  now = new Date(),
): Promise<string> {
  return insertSmartCard(db, { userId, ...DEFAULT_SMART_CARD, now });
}

export async function smartCardsOf(db: Kysely<Database>, userId: string): Promise<SmartCardRow[]> {
  return db
    .selectFrom('smart_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The caller's own card, or undefined (someone else's card is as unknown as a made-up id). */
export async function ownSmartCard(
  db: Kysely<Database>,
  userId: string,
  cardId: string,
): Promise<SmartCardRow | undefined> {
  return db
    .selectFrom('smart_cards')
    .selectAll()
    .where('id', '=', cardId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function serializeSmartCard(card: SmartCardRow) {
  return {
    id: card.id,
    type: 'smartCards' as const,
    attributes: { smartCardType: card.smart_card_type as SmartCardType, description: card.description },
  };
}
