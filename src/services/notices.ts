// A one-off notice for the next list screen (the download route sends the user to the list and says why
// nothing was downloaded). Held in memory only: a reload forgets it, as a toast would.
type NoticeListener = () => void;

let current: string | null = null;
const listeners = new Set<NoticeListener>();

export function showNotice(code: string | null): void {
  current = code;
  for (const listener of listeners) listener();
}

export function readNotice(): string | null {
  return current;
}

export function dismissNotice(): void {
  showNotice(null);
}

export function onNotice(listener: NoticeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
