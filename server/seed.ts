// Demo data for a first start in demo mode (config.demo): three people who know each other, a fourth who
// knows nobody yet and has asked ada to connect, a fifth at his plan's monthly sign limit, everyone's smart
// cards, and a handful of documents in the states a visitor should see (one that cannot be signed).
// Runs once: when ada@paraph.test exists, nothing happens. A document whose flow says someone signed it
// carries their signature: it is signed at seed time by the server's signer, the engine behind every
// confirmation, onto the flow's signature page, with the version rows and audit entries a confirmation
// writes (docs/decisions.md "Signing on the server", demo signatures).
import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PDFDocument, PDFString, StandardFonts, rgb } from 'pdf-lib';
import { recordAudit } from './audit.ts';
import { hashPassword } from './auth/passwords.ts';
import { DAY_MS } from './config.ts';
import type { AppDeps } from './context.ts';
import { actionDb } from './documents/access.ts';
import { enqueueMail } from './mail/queue.ts';
import type { Database, ParticipantRole, ParticipantState, SignFlowState } from './db/schema.ts';
import { pairKey } from './handlers/connections.ts';
import { queueRenderPages } from './images/worker.ts';
import { insertSmartCard } from './documents/signing-cards.ts';
import { signedKey } from './documents/signing-confirm.ts';
import { SIGNED_ACTION } from './documents/signing-limits.ts';
import { flowPlacement } from './documents/signing-placement.ts';
import { VERSION_TTL_MS } from './documents/signing-versions.ts';
import type { SmartCardType } from './signing/smart-card-type.ts';
import type { StampLocale } from './signing/stamp-text.ts';

export const DEMO_PASSWORD = 'paraph-demo';
// Every demo account's profile language, and so the language of their stamps.
const DEMO_LOCALE: StampLocale = 'en';

export const DEMO_ACCOUNTS = [
  { key: 'ada', email: 'ada@paraph.test', fullName: 'Ada Lovelace', initials: 'AL', countryCode: 'uk' },
  { key: 'bob', email: 'bob@paraph.test', fullName: 'Bob Baker', initials: 'BB', countryCode: 'nl' },
  { key: 'carol', email: 'carol@paraph.test', fullName: 'Carol Chen', initials: 'CC', countryCode: 'nl' },
  // Not connected to anyone, so "add a connection by e-mail" can be tried on her; her request to ada
  // shows the Connections badge.
  { key: 'erin', email: 'erin@paraph.test', fullName: 'Erin Evans', initials: 'EE', countryCode: 'be' },
  // On the free plan with this month's signatures used up: his confirmation ends in
  // sign_limit_exceeded.
  { key: 'frank', email: 'frank@paraph.test', fullName: 'Frank Fisher', initials: 'FF', countryCode: 'de' },
] as const;

type DemoKey = (typeof DEMO_ACCOUNTS)[number]['key'];

const CONNECTED: readonly DemoKey[] = ['ada', 'bob', 'carol'];

// Smart cards: every demo account has at least two levels to choose from.
const DEMO_CARDS: Record<DemoKey, readonly { smartCardType: SmartCardType; description: string }[]> = {
  ada: [
    { smartCardType: 'personal_level3', description: "Ada's ID card" },
    { smartCardType: 'business_level4', description: 'Acme Ltd company card' },
  ],
  bob: [
    { smartCardType: 'personal_level2', description: "Bob's ID card" },
    { smartCardType: 'business_level3', description: 'Baker & Sons Bakery company card' },
  ],
  carol: [
    { smartCardType: 'personal_level4', description: "Carol's qualified signature card" },
    { smartCardType: 'personal_level1', description: "Carol's phone ID" },
  ],
  erin: [
    { smartCardType: 'personal_level2', description: "Erin's ID card" },
    { smartCardType: 'default', description: 'Paraph ID' },
  ],
  frank: [
    { smartCardType: 'personal_level2', description: "Frank's ID card" },
    { smartCardType: 'personal_level0', description: 'Paraph ID (unverified)' },
  ],
};

// A PDF that renders but that the signer cannot prepare: its page draws from an object no reader
// can read, so its signature ends in presign_error (upload would refuse it; the demo stores it directly).
const DAMAGED_TITLE = 'Scanned invoice';

// What a demo signatory chose when they signed: one of their cards, a location and a reason.
type DemoSignature = { smartCardType: SmartCardType; location: string; reason: string };

// `invitee` is someone without an account yet, invited by e-mail (DEMO_INVITEE_EMAIL). A signatory in
// `signed` has the signature they made.
type DemoParticipant = {
  who: DemoKey | 'invitee';
  role: ParticipantRole;
  state: ParticipantState;
  reason?: string;
  signature?: DemoSignature;
};

// Has no account: signing up with it and accepting the seeded invite links them to the flow.
export const DEMO_INVITEE_EMAIL = 'dave@paraph.test';

// A document with a sign flow is in its flow's state; one without has just been uploaded.
type DemoDocument = { title: string; owner: DemoKey; pages: number; ageDays: number } & (
  { state: 'uploaded' } | { state: SignFlowState; comment: string; participants: DemoParticipant[] }
);

function reviewer(who: DemoKey, state: ParticipantState): DemoParticipant {
  return { who, role: 'reviewer', state };
}

function signatory(who: DemoParticipant['who'], state: ParticipantState, reason?: string): DemoParticipant {
  return { who, role: 'signatory', state, ...(reason === undefined ? {} : { reason }) };
}

function signedBy(who: DemoKey, signature: DemoSignature): DemoParticipant {
  return { who, role: 'signatory', state: 'signed', signature };
}

// Every demo flow puts its signatures on a signature page after the last page.
const DEMO_SIGN_PAGE_NUMBER = 0;

const DEMO_DOCUMENTS: DemoDocument[] = [
  { title: 'Welcome to Paraph', owner: 'ada', state: 'uploaded', pages: 2, ageDays: 0 },
  {
    title: 'Supplier agreement',
    owner: 'ada',
    state: 'in_review',
    pages: 3,
    ageDays: 1,
    comment: 'Bob, please check the delivery terms before Carol signs.',
    participants: [
      reviewer('bob', 'pending'),
      signatory('carol', 'waiting'),
      signatory('invitee', 'waiting'),
    ],
  },
  {
    title: 'Office lease 2025',
    owner: 'ada',
    state: 'awaiting_signs',
    pages: 4,
    ageDays: 2,
    comment: 'Bob has signed; your signature completes it.',
    participants: [
      signedBy('bob', {
        smartCardType: 'business_level3',
        location: 'Amsterdam',
        reason: 'Signed for Baker & Sons Bakery, the tenant.',
      }),
      signatory('ada', 'pending'),
    ],
  },
  {
    title: 'Non-disclosure agreement',
    owner: 'bob',
    state: 'signed',
    pages: 2,
    ageDays: 5,
    comment: '',
    participants: [
      signedBy('ada', {
        smartCardType: 'personal_level3',
        location: 'London',
        reason: 'I will keep the disclosed information confidential.',
      }),
      signedBy('bob', { smartCardType: 'personal_level2', location: 'Amsterdam', reason: '' }),
    ],
  },
  {
    title: 'Budget proposal',
    owner: 'carol',
    state: 'refused',
    pages: 1,
    ageDays: 7,
    comment: 'Numbers for Q3.',
    participants: [signatory('ada', 'refused', 'The totals do not add up.'), signatory('bob', 'cancelled')],
  },
  {
    title: 'Project plan',
    owner: 'carol',
    state: 'in_review',
    pages: 2,
    ageDays: 3,
    comment: 'Ada, does the timeline work for you?',
    participants: [reviewer('ada', 'pending'), signatory('bob', 'waiting')],
  },
  { title: DAMAGED_TITLE, owner: 'ada', state: 'uploaded', pages: 1, ageDays: 0 },
  { title: 'Expense report', owner: 'frank', state: 'uploaded', pages: 1, ageDays: 0 },
];

async function demoPdf(title: string, owner: string, pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setProducer('Paraph demo');
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    const page = doc.addPage([595.28, 841.89]);
    const { height } = page.getSize();
    page.drawRectangle({ x: 0, y: height - 90, width: 595.28, height: 90, color: rgb(0.06, 0.42, 0.74) });
    page.drawText(title, { x: 56, y: height - 60, size: 24, font: bold, color: rgb(1, 1, 1) });
    page.drawText(`Prepared by ${owner} · page ${n} of ${pages}`, {
      x: 56,
      y: height - 130,
      size: 12,
      font: regular,
    });
    const lines = [
      'This is a demonstration document created by Paraph on first start.',
      'Upload your own PDF with the Upload button to try the full journey.',
      'Every change to a document is written to its audit trail.',
    ];
    lines.forEach((line, index) => {
      page.drawText(line, {
        x: 56,
        y: height - 180 - index * 22,
        size: 12,
        font: regular,
        color: rgb(0.2, 0.2, 0.2),
      });
    });
    page.drawLine({
      start: { x: 56, y: 140 },
      end: { x: 260, y: 140 },
      thickness: 1,
      color: rgb(0.5, 0.5, 0.5),
    });
    page.drawText('Signature', { x: 56, y: 124, size: 10, font: regular, color: rgb(0.4, 0.4, 0.4) });
  }
  return Buffer.from(await doc.save());
}

// Page 1's content names one more stream, an object no reader can parse: pdf.js draws the rest of the
// page, but what the page shows depends on the reader. The object's bytes replace a placeholder of the
// same length, so the cross-reference table stays right.
async function damaged(pdf: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf);
  const placeholder = `(${'x'.repeat(30)})`;
  const brokenRef = doc.context.register(PDFString.of('x'.repeat(30)));
  doc.getPage(0).node.addContentStream(brokenRef);
  const text = Buffer.from(await doc.save({ useObjectStreams: false })).toString('latin1');
  const at = text.indexOf(`${brokenRef.objectNumber} 0 obj\n${placeholder}`);
  if (at < 0) throw new Error('The demo PDF has no placeholder to damage');
  const broken = '<< /Broken [ 1 2 >> ] >>'.padEnd(placeholder.length, ' ');
  const start = at + `${brokenRef.objectNumber} 0 obj\n`.length;
  return Buffer.from(text.slice(0, start) + broken + text.slice(start + placeholder.length), 'latin1');
}

type DemoSigned = {
  participantIndex: number;
  who: DemoKey;
  choice: DemoSignature;
  versionId: string;
  key: string;
  signedAt: Date;
  sha256Before: string;
  sha256After: string;
};

/**
 * Signs a demo document as its flow's signatories who have signed, in their order, the way each one's
 * confirmation would: the same signer, placement and signature index, each over the file before it. Only
 * the last file is stored; like a confirmation's, it holds every earlier signature.
 */
async function signDemoDocument(
  deps: AppDeps,
  spec: DemoDocument,
  file: { id: string; bytes: Buffer },
  signerOf: (who: DemoKey) => { userId: string; fullName: string; email: string },
): Promise<DemoSigned[]> {
  if (spec.state === 'uploaded') return [];
  const { placement } = flowPlacement({ sign_page_number: DEMO_SIGN_PAGE_NUMBER }, undefined);
  const signed: DemoSigned[] = [];
  let pdf: Uint8Array = file.bytes;
  // A completed flow's last signature is followed by a document time-stamp (B-LTA), as a confirmation's is.
  const lastSigned = spec.participants.findLastIndex((participant) => participant.state === 'signed');
  for (const [participantIndex, participant] of spec.participants.entries()) {
    if (participant.state !== 'signed') continue;
    const { signature, who } = participant;
    if (signature === undefined || who === 'invitee') {
      throw new Error(`demo signatory ${who} of "${spec.title}" has no signature`);
    }
    const signedAt = deps.clock();
    const result = await deps.signer.sign({
      pdf,
      signer: signerOf(who),
      smartCardType: signature.smartCardType,
      locale: DEMO_LOCALE,
      location: signature.location,
      reason: signature.reason,
      signedAt,
      placement,
      signatureIndex: signed.length,
      completesFlow: spec.state === 'signed' && participantIndex === lastSigned,
    });
    pdf = result.pdf;
    const versionId = randomUUID();
    signed.push({
      participantIndex,
      who,
      choice: signature,
      versionId,
      key: signedKey(file.id, versionId),
      signedAt,
      sha256Before: result.sha256Before,
      sha256After: result.sha256After,
    });
  }
  const last = signed.at(-1);
  if (last !== undefined) await deps.store.put(last.key, Buffer.from(pdf), 'application/pdf');
  return signed;
}

function pairOrdered(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

/** The version row and the `document.signed` entry a confirmation writes for the signature. */
async function insertDemoSignature(
  trx: Kysely<Database>,
  input: {
    documentId: string;
    participantId: string;
    userId: string;
    smartCardId: string | undefined;
    signed: DemoSigned;
    stateAfter: SignFlowState;
  },
): Promise<void> {
  const { signed } = input;
  const { choice } = signed;
  if (input.smartCardId === undefined) throw new Error(`${signed.who} has no ${choice.smartCardType} card`);
  const at = signed.signedAt.toISOString();
  const { columns } = flowPlacement({ sign_page_number: DEMO_SIGN_PAGE_NUMBER }, undefined);
  await trx
    .insertInto('document_versions')
    .values({
      id: signed.versionId,
      document_id: input.documentId,
      user_id: input.userId,
      participant_id: input.participantId,
      smart_card_id: input.smartCardId,
      smart_card_type: choice.smartCardType,
      location: choice.location,
      reason: choice.reason,
      ...columns,
      state: 'signed',
      file_key: signed.key,
      sha256_before: signed.sha256Before,
      sha256_after: signed.sha256After,
      created_at: at,
      answered_at: at,
      expires_at: new Date(signed.signedAt.getTime() + VERSION_TTL_MS).toISOString(),
      notified_at: null,
    })
    .execute();
  await recordAudit(trx, {
    documentId: input.documentId,
    actorId: input.userId,
    action: SIGNED_ACTION,
    at: signed.signedAt,
    sha256Before: signed.sha256Before,
    sha256After: signed.sha256After,
    details: {
      demo: true,
      versionId: signed.versionId,
      participantId: input.participantId,
      smartCardType: choice.smartCardType,
      location: choice.location,
      reason: choice.reason,
      state: input.stateAfter,
    },
  });
}

export type SeedResult = { seeded: boolean; accounts: readonly { email: string; fullName: string }[] };

export async function seedDemo(deps: AppDeps): Promise<SeedResult> {
  const { db, store } = deps;
  const accounts = DEMO_ACCOUNTS.map(({ email, fullName }) => ({ email, fullName }));
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', DEMO_ACCOUNTS[0].email)
    .executeTakeFirst();
  if (existing !== undefined) return { seeded: false, accounts };

  const now = deps.clock();
  const nowIso = now.toISOString();
  // Hashed while the files are made and signed: both take a while, on other threads.
  const hashing = hashPassword(DEMO_PASSWORD);
  const ids = new Map<DemoKey, string>(DEMO_ACCOUNTS.map((account) => [account.key, randomUUID()]));
  const idOf = (key: DemoKey): string => {
    const id = ids.get(key);
    if (id === undefined) throw new Error(`no demo user ${key}`);
    return id;
  };
  const emailOf = (key: DemoKey): string => DEMO_ACCOUNTS.find((account) => account.key === key)?.email ?? '';
  const nameOf = (key: DemoKey): string =>
    DEMO_ACCOUNTS.find((account) => account.key === key)?.fullName ?? '';

  const signerOf = (key: DemoKey) => ({ userId: idOf(key), fullName: nameOf(key), email: emailOf(key) });

  // Files first: a document row never points at a file that is not there. The documents are signed side
  // by side, so the signers' first keys are made at the same time.
  const files = await Promise.all(
    DEMO_DOCUMENTS.map(async (spec) => {
      const id = randomUUID();
      const key = `documents/${id}/original.pdf`;
      const made = await demoPdf(spec.title, nameOf(spec.owner), spec.pages);
      const bytes = spec.title === DAMAGED_TITLE ? await damaged(made) : made;
      await store.put(key, bytes, 'application/pdf');
      const signed = await signDemoDocument(deps, spec, { id, bytes }, signerOf);
      return { id, key, bytes, sha256: createHash('sha256').update(bytes).digest('hex'), signed };
    }),
  );
  const passwordHash = await hashing;
  const cardIds = new Map<string, string>();

  await db.transaction().execute(async (trx) => {
    for (const account of DEMO_ACCOUNTS) {
      await trx
        .insertInto('users')
        .values({
          id: idOf(account.key),
          email: account.email,
          full_name: account.fullName,
          initials: account.initials,
          password_hash: passwordHash,
          locale: DEMO_LOCALE,
          country_code: account.countryCode,
          location: '',
          welcome_screen_watched: 0,
          plan: 'basic',
          created_at: nowIso,
          last_seen_at: null,
        })
        .execute();
    }
    for (const account of DEMO_ACCOUNTS) {
      for (const card of DEMO_CARDS[account.key]) {
        const cardId = await insertSmartCard(trx, { userId: idOf(account.key), ...card, now });
        cardIds.set(`${account.key} ${card.smartCardType}`, cardId);
      }
    }
    // Frank signed (and since deleted) as many documents this month as his plan allows: the audit
    // entries the limit counts outlive the documents.
    for (let n = 0; n < (deps.config.signLimits.basic ?? 0); n += 1) {
      await recordAudit(trx, {
        documentId: randomUUID(),
        actorId: idOf('frank'),
        action: SIGNED_ACTION,
        at: now,
        details: { demo: true },
      });
    }
    for (let i = 0; i < CONNECTED.length; i += 1) {
      for (let j = i + 1; j < CONNECTED.length; j += 1) {
        const [a, b] = pairOrdered(idOf(CONNECTED[i] ?? 'ada'), idOf(CONNECTED[j] ?? 'ada'));
        await trx
          .insertInto('connections')
          .values({ id: randomUUID(), user_a_id: a, user_b_id: b, created_at: nowIso })
          .execute();
      }
    }
    await trx
      .insertInto('connection_requests')
      .values({
        id: randomUUID(),
        from_user_id: idOf('erin'),
        to_user_id: idOf('ada'),
        invitation_email: null,
        pair_key: pairKey(idOf('erin'), idOf('ada')),
        created_at: nowIso,
      })
      .execute();

    for (const [index, spec] of DEMO_DOCUMENTS.entries()) {
      const file = files[index];
      if (file === undefined) continue;
      const createdAt = new Date(now.getTime() - spec.ageDays * DAY_MS - index * 60_000);
      const createdIso = createdAt.toISOString();
      const lastSignature = file.signed.at(-1);
      await trx
        .insertInto('documents')
        .values({
          id: file.id,
          owner_id: idOf(spec.owner),
          original_filename: `${spec.title}.pdf`,
          file_key: file.key,
          file_size: file.bytes.length,
          sha256: file.sha256,
          page_count: spec.pages,
          state: spec.state,
          images_state: 'pending',
          created_at: createdIso,
          updated_at: lastSignature?.signedAt.toISOString() ?? createdIso,
          autodeletion_at: new Date(createdAt.getTime() + deps.config.retentionDays * DAY_MS).toISOString(),
          signed_file_key: lastSignature?.key ?? null,
        })
        .execute();
      await queueRenderPages(trx, file.id, now);
      await recordAudit(trx, {
        documentId: file.id,
        actorId: idOf(spec.owner),
        action: 'document.uploaded',
        at: createdAt,
        sha256After: file.sha256,
        details: { originalFilename: `${spec.title}.pdf`, demo: true },
      });
      if (spec.state === 'uploaded') continue;
      const flowId = randomUUID();
      await trx
        .insertInto('sign_flows')
        .values({
          id: flowId,
          document_id: file.id,
          type: 'standard',
          comment: spec.comment,
          minimum_required_signs: 0,
          sign_page_number: 0,
          state: spec.state,
          created_at: createdIso,
          updated_at: createdIso,
        })
        .execute();
      for (const [position, participant] of spec.participants.entries()) {
        const participantId = randomUUID();
        const signature = file.signed.find((entry) => entry.participantIndex === position);
        await trx
          .insertInto('sign_flow_participants')
          .values({
            id: participantId,
            sign_flow_id: flowId,
            role: participant.role,
            position: position + 1,
            email: participant.who === 'invitee' ? DEMO_INVITEE_EMAIL : emailOf(participant.who),
            user_id: participant.who === 'invitee' ? null : idOf(participant.who),
            state: participant.state,
            signed_at: signature?.signedAt.toISOString() ?? null,
            refused_at: participant.state === 'refused' ? createdIso : null,
            approved_at: participant.state === 'approved' ? createdIso : null,
            rejected_at: participant.state === 'rejected' ? createdIso : null,
            refuse_reason: participant.reason ?? null,
          })
          .execute();
        if (signature !== undefined) {
          await insertDemoSignature(trx, {
            documentId: file.id,
            participantId,
            userId: idOf(signature.who),
            smartCardId: cardIds.get(`${signature.who} ${signature.choice.smartCardType}`),
            signed: signature,
            stateAfter: signature === lastSignature ? spec.state : 'awaiting_signs',
          });
        }
      }
      if (spec.participants.some((participant) => participant.who === 'invitee')) {
        const inviteId = randomUUID();
        await actionDb(trx)
          .insertInto('invites')
          .values({
            id: inviteId,
            email: DEMO_INVITEE_EMAIL,
            document_id: file.id,
            sign_flow_id: flowId,
            created_at: createdIso,
            accepted_at: null,
            accepted_by: null,
          })
          .execute();
        // The invitation as a flow sends it, so the demo's sign-up link can be found in the outbox.
        await enqueueMail(
          trx,
          { email: DEMO_INVITEE_EMAIL, fallbackLocale: 'en' },
          {
            kind: 'flow.invitation',
            role: 'signatory',
            sender: { fullName: nameOf(spec.owner), email: emailOf(spec.owner) },
            filename: `${spec.title}.pdf`,
            comment: '',
            email: DEMO_INVITEE_EMAIL,
            inviteId,
          },
          createdAt,
        );
      }
      await recordAudit(trx, {
        documentId: file.id,
        actorId: idOf(spec.owner),
        action: 'sign_flow.created',
        at: createdAt,
        details: { demo: true, state: spec.state },
      });
    }
  });
  return { seeded: true, accounts };
}
