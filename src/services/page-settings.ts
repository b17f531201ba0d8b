// The server's run-time settings the app needs (support addresses, the products page, the geocoder) come
// as meta tags in its page (server/pages/spa.ts), so that one build serves any setup. A tag that is
// missing (the Vite dev server) or holds a value its check refuses reads as null: the caller's default.
export function pageSetting(
  name: string,
  isAcceptable: (value: string) => boolean = () => true,
): string | null {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  return content && isAcceptable(content) ? content : null;
}
