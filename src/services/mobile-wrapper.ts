// Messages to a mobile app that shows Paraph in a web view (spec 000 §1, spec 001 §7). Only the two
// bridges a wrapper injects are used: React Native's `window.ReactNativeWebView.postMessage` (a JSON
// string) and WebKit's `window.webkit.messageHandlers.paraph.postMessage` (the object). Never
// `window.parent` or `postMessage('*')`, which any embedding page could read; and nothing here logs,
// since one message carries the access token. Formats: docs/decisions.md "Language, welcome and mobile
// wrappers ([6/6])".

/** The name a WebKit wrapper registers its handler under (as the sign screen's set-location). */
export const WEBKIT_HANDLER_NAME = 'paraph';

export type WrapperMessage =
  { type: 'accessToken'; accessToken: string } | { type: 'setLocation'; location: string };

type WrapperWindow = Window & {
  ReactNativeWebView?: { postMessage?: (message: string) => void };
  webkit?: { messageHandlers?: Record<string, { postMessage?: (message: unknown) => void } | undefined> };
};

/** Posts to every bridge present; false when the page is not in a web view. */
export function postToMobileWrapper(message: WrapperMessage): boolean {
  const host = window as WrapperWindow;
  let isPosted = false;
  const reactNative = host.ReactNativeWebView;
  if (typeof reactNative?.postMessage === 'function') {
    reactNative.postMessage(JSON.stringify(message));
    isPosted = true;
  }
  const webkit = host.webkit?.messageHandlers?.[WEBKIT_HANDLER_NAME];
  if (typeof webkit?.postMessage === 'function') {
    webkit.postMessage(message);
    isPosted = true;
  }
  return isPosted;
}

/** After sign-in, once the token is stored: the wrapper keeps the token for its own calls. */
export function postAccessToken(accessToken: string): void {
  postToMobileWrapper({ type: 'accessToken', accessToken });
}

/** The sign screen's location, as the sign request sends it. */
export function postSigningLocation(location: string): void {
  const trimmed = location.trim();
  if (trimmed !== '') postToMobileWrapper({ type: 'setLocation', location: trimmed });
}

type SigningSnapshot = { matches(state: 'submitting'): boolean; context: { location: string } };

/**
 * Follows a signing actor: each time a sign request goes out, its location is posted once. Returns the
 * unsubscribe function (an effect's cleanup).
 */
export function watchSigningLocation(actor: {
  getSnapshot(): SigningSnapshot;
  subscribe(observer: (snapshot: SigningSnapshot) => void): { unsubscribe(): void };
}): () => void {
  let wasSubmitting = actor.getSnapshot().matches('submitting');
  const subscription = actor.subscribe((snapshot) => {
    const isSubmitting = snapshot.matches('submitting');
    if (isSubmitting && !wasSubmitting) postSigningLocation(snapshot.context.location);
    wasSubmitting = isSubmitting;
  });
  return () => subscription.unsubscribe();
}
