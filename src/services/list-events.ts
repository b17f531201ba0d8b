// Lets the upload machine's refreshList reach whichever document list is on screen, without either
// knowing the other. No list mounted: nothing happens, and the next list loads fresh anyway.
type RefreshListener = (selectId: string | undefined) => void;

const listeners = new Set<RefreshListener>();

export function requestListRefresh(selectId?: string): void {
  for (const listener of listeners) listener(selectId);
}

export function onListRefresh(listener: RefreshListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
