// The audit trail of one document as a PDF (docs/decisions.md "Settings and the audit trail"): the
// document, then one block per audit event in time order. Drawn with pdf-lib's standard Helvetica, whose
// WinAnsi encoding cannot show every character a user may type: those become '?' rather than failing
// the whole download. A block never splits across pages, so a long trail simply runs onto more pages.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

export type AuditTrailPerson = { fullName: string; email: string };

export type AuditTrailEvent = {
  at: string;
  action: string;
  actor: AuditTrailPerson | null;
  ip: string | null;
  userAgent: string | null;
  sha256Before: string | null;
  sha256After: string | null;
  details: Record<string, unknown>;
};

export type AuditTrailInput = {
  document: {
    id: string;
    originalFilename: string;
    sha256: string;
    pageCount: number;
    createdAt: string;
    owner: AuditTrailPerson;
  };
  events: AuditTrailEvent[];
  generatedAt: Date;
};

// A4 portrait, in points.
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 48;
const FOOTER_SPACE = 28;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const TEXT_SIZE = 9.5;
const SMALL_SIZE = 8.5;
const LINE_GAP = 1.35;
const EVENT_GAP = 10;
const USER_AGENT_MAX = 120;
const REASON_MAX = 128;
const MUTED = rgb(0.35, 0.35, 0.35);

const STATE_TEXTS: Record<string, string> = {
  uploaded: 'uploaded',
  in_review: 'in review',
  awaiting_signs: 'awaiting signatures',
  signing: 'a signature awaits confirmation',
  signed: 'signed',
  refused: 'refused',
  rejected: 'rejected',
  cancelled: 'cancelled',
  error: 'error',
};

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function shorten(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 3)}...`;
}

function quoted(value: string): string {
  return `\u201c${shorten(value, REASON_MAX)}\u201d`;
}

// personal_level3 -> "personal level 3"; business_level4 -> "business level 4".
function cardText(details: Record<string, unknown>): string | null {
  const type = text(details.smartCardType);
  if (type === null) return null;
  const match = /^(personal|business)_level(\d)$/.exec(type);
  return match ? `${match[1]} level ${match[2]}` : type.replaceAll('_', ' ');
}

// Why a signature did not happen (the `reason` codes of the signing pipeline, not user text).
const SIGN_STOP_TEXTS: Record<string, string> = {
  not_allowed: 'signing was no longer allowed',
  no_placement: 'there was no place for the signature',
  flow_ended: 'the sign flow had ended',
  busy: 'another signature was being applied',
  presign_error: 'the PDF could not be prepared for signing',
  timeout: 'it was not confirmed in time',
  error: 'an error occurred',
};

function withStopReason(base: string, details: Record<string, unknown>): string {
  const reason = text(details.reason);
  const why = reason === null ? undefined : SIGN_STOP_TEXTS[reason];
  return why === undefined ? base : `${base}: ${why}`;
}

/** What happened, in words, for each action code the server records (grep recordAudit in server/). */
export function describeAction(action: string, details: Record<string, unknown>): string {
  const reason = text(details.reason);
  const base = ((): string => {
    switch (action) {
      case 'document.uploaded':
        return 'Document uploaded';
      case 'document.rendering_failed':
        return 'The page images could not be made (the file could not be rendered)';
      case 'document.archived':
        return 'Archived (for this person only)';
      case 'document.deleted_for_participant':
        return 'Deleted from this participant\u2019s documents';
      case 'document.deleted':
        return 'Document deleted by the owner';
      case 'document.autodeleted':
        return 'Document deleted automatically at the end of its retention period';
      case 'document.sign_requested': {
        const card = cardText(details);
        return `Signature requested${card === null ? '' : ` with a ${card} smart card`}; awaiting confirmation in the identity app`;
      }
      case 'document.signed': {
        const card = cardText(details);
        const location = text(details.location);
        return [
          `Signed${card === null ? '' : ` with a ${card} smart card`}`,
          location === null ? null : `in ${quoted(location)}`,
          reason === null ? null : `giving the reason ${quoted(reason)}`,
        ]
          .filter((part): part is string => part !== null)
          .join(', ');
      }
      case 'document.sign_denied':
        return 'Signature denied in the identity app';
      case 'document.sign_cancelled':
        return withStopReason('Signature request cancelled', details);
      case 'document.sign_failed':
        return withStopReason('Signature failed', details);
      case 'document.sign_limit_exceeded':
        return 'Signature refused: the monthly signing limit of the account plan is reached';
      case 'sign_flow.created':
        return 'Sign flow started';
      case 'sign_flow.updated':
        return 'Sign flow edited';
      case 'sign_flow.approved':
        return details.reviewComplete === true ? 'Approved; the review is complete' : 'Approved';
      case 'sign_flow.rejected':
        return 'Rejected';
      case 'sign_flow.refused':
        return reason === null ? 'Refused to sign' : `Refused to sign, giving the reason ${quoted(reason)}`;
      case 'sign_flow.cancelled':
        return 'Sign flow cancelled';
      case 'invite.accepted':
        return 'Invitation accepted';
      default:
        return `Event ${action}`;
    }
  })();
  const state = text(details.state);
  const stateText = state === null ? null : (STATE_TEXTS[state] ?? state);
  return stateText === null ? base : `${base} (the document is now ${stateText})`;
}

/** Every character the font cannot encode becomes '?'; line breaks and tabs become spaces. */
export function winAnsiSafe(value: string, encodable: ReadonlySet<number>): string {
  let out = '';
  for (const char of value.replace(/[\r\n\t]+/g, ' ')) {
    const code = char.codePointAt(0) ?? 0;
    out += encodable.has(code) ? char : '?';
  }
  return out;
}

type Style = { font: PDFFont; size: number; color?: ReturnType<typeof rgb> };
type Line = { text: string; style: Style; indent: number };

// Breaks at spaces; a word wider than the line (a hash, a long name) is cut wherever it must be.
function wrap(value: string, style: Style, width: number): string[] {
  const fits = (candidate: string) => style.font.widthOfTextAtSize(candidate, style.size) <= width;
  const lines: string[] = [];
  let current = '';
  for (const word of value.split(' ')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (fits(candidate)) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = '';
    let rest = word;
    while (!fits(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    current = rest;
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines;
}

function lineHeight(style: Style): number {
  return style.size * LINE_GAP;
}

function blockHeight(lines: Line[]): number {
  return lines.reduce((sum, line) => sum + lineHeight(line.style), 0);
}

function personText(person: AuditTrailPerson | null): string {
  if (person === null) return 'system';
  return person.fullName.trim() === '' ? person.email : `${person.fullName} <${person.email}>`;
}

export async function buildAuditTrailPdf(input: AuditTrailInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const encodable = new Set(regular.getCharacterSet());
  const safe = (value: string) => winAnsiSafe(value, encodable);
  const { document, events } = input;

  pdf.setTitle(safe(`Audit trail: ${document.originalFilename}`));
  pdf.setProducer('Paraph');
  pdf.setCreationDate(input.generatedAt);

  const styles = {
    title: { font: bold, size: 18 },
    heading: { font: bold, size: 12 },
    label: { font: bold, size: TEXT_SIZE },
    body: { font: regular, size: TEXT_SIZE },
    small: { font: regular, size: SMALL_SIZE, color: MUTED },
  } satisfies Record<string, Style>;

  const linesOf = (value: string, style: Style, indent = 0): Line[] =>
    wrap(safe(value), style, CONTENT_WIDTH - indent).map((part) => ({ text: part, style, indent }));

  let page: PDFPage = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  let y = PAGE_HEIGHT - MARGIN;

  const draw = (lines: Line[]) => {
    for (const line of lines) {
      y -= lineHeight(line.style);
      page.drawText(line.text, {
        x: MARGIN + line.indent,
        y: y + (lineHeight(line.style) - line.style.size),
        font: line.style.font,
        size: line.style.size,
        color: line.style.color ?? rgb(0, 0, 0),
      });
    }
  };
  // A block that does not fit what is left of the page starts the next one.
  const place = (lines: Line[]) => {
    if (y - blockHeight(lines) < MARGIN + FOOTER_SPACE) {
      page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
      y = PAGE_HEIGHT - MARGIN;
    }
    draw(lines);
  };

  place(linesOf('Audit trail', styles.title));
  place(linesOf(`Generated ${input.generatedAt.toISOString()} (all times UTC)`, styles.small));
  y -= EVENT_GAP;

  const facts: [string, string][] = [
    ['File name', document.originalFilename],
    ['Document id', document.id],
    ['Original SHA-256', document.sha256],
    ['Pages', String(document.pageCount)],
    ['Owner', personText(document.owner)],
    ['Uploaded', document.createdAt],
  ];
  place(linesOf('Document', styles.heading));
  for (const [label, value] of facts) place(linesOf(`${label}: ${value}`, styles.body));
  y -= EVENT_GAP;

  place(linesOf(`Events (${events.length})`, styles.heading));
  if (events.length === 0) place(linesOf('No events have been recorded.', styles.body));
  for (const event of events) {
    const lines: Line[] = [
      ...linesOf(`${event.at}  ${describeAction(event.action, event.details)}`, styles.label),
      ...linesOf(`By: ${personText(event.actor)}`, styles.body, 10),
    ];
    const origin = [
      event.ip === null ? null : `IP address: ${event.ip}`,
      event.userAgent === null ? null : `User agent: ${shorten(event.userAgent, USER_AGENT_MAX)}`,
    ].filter((part): part is string => part !== null);
    if (origin.length > 0) lines.push(...linesOf(origin.join('   '), styles.small, 10));
    if (event.sha256Before !== null)
      lines.push(...linesOf(`SHA-256 before: ${event.sha256Before}`, styles.small, 10));
    if (event.sha256After !== null)
      lines.push(...linesOf(`SHA-256 after: ${event.sha256After}`, styles.small, 10));
    y -= EVENT_GAP / 2;
    place(lines);
  }

  const pages = pdf.getPages();
  pages.forEach((each, index) => {
    each.drawText(
      safe(`Paraph audit trail \u00b7 ${document.id} \u00b7 Page ${index + 1} of ${pages.length}`),
      {
        x: MARGIN,
        y: MARGIN / 2,
        font: regular,
        size: 7.5,
        color: MUTED,
      },
    );
  });
  return pdf.save();
}
