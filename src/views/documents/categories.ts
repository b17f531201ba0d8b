import type { DocumentCategory } from '../../../machines/types';

/** URL slugs of /app/documents/:category (spec 000 §2) and the list each one shows. */
const SLUG_CATEGORIES: Record<string, DocumentCategory> = {
  'to-do': 'to_do',
  'in-progress': 'in_progress',
  done: 'done',
  failed: 'failed',
  uploaded: 'uploaded',
};

export function categoryOfSlug(slug: string | undefined): DocumentCategory | null {
  if (slug === undefined) return 'active';
  return SLUG_CATEGORIES[slug] ?? null;
}
