// Messages to a mobile app that shows Paraph in a web view (spec 000 §1, spec 001 §7). Only the two
// bridges a wrapper injects are used: React Native's `window.ReactNativeWebView.postMessage` (a JSON
// string) and WebKit's `window.webkit.messageHandlers.paraph.postMessage` (the object). Never
// `window.parent` or `postMessage('*')`, which any embedding page could read; and nothing here logs,
// since one message carries the access token. Formats: docs/decisions.md "Language, welcome and mobile
// wrappers".

/** The name a WebKit wrapper registers its handler under (as the sign screen's set-location). */
export const WEBKIT_HANDLER_NAME = 'paraph';

export type WrapperMessage =
  | { type: 'accessToken'; accessToken: string }
  | { type: 'setLocation'; location: string }
  // The sign screen asks the wrapper for the device's position (services/geolocation.ts).
  | { type: 'set-location' };

type WrapperWindow = Window & {
  ReactNativeWebView?: { postMessage?: (message: string) => void };
  webkit?: { messageHandlers?: Record<string, { postMessage?: (message: unknown) => void } | undefined> };
};

function bridges(): {
  reactNative: ((message: string) => void) | null;
  webkit: ((message: unknown) => void) | null;
} {
  const host = window as WrapperWindow;
  const reactNative = host.ReactNativeWebView;
  const webkit = host.webkit?.messageHandlers?.[WEBKIT_HANDLER_NAME];
  return {
    reactNative:
      typeof reactNative?.postMessage === 'function' ? reactNative.postMessage.bind(reactNative) : null,
    webkit: typeof webkit?.postMessage === 'function' ? webkit.postMessage.bind(webkit) : null,
  };
}

/** Whether the page runs in a mobile app's web view (one of the two bridges is there). */
export function hasMobileWrapper(): boolean {
  const { reactNative, webkit } = bridges();
  return reactNative !== null || webkit !== null;
}

/** Posts to every bridge present; false when the page is not in a web view. */
export function postToMobileWrapper(message: WrapperMessage): boolean {
  const { reactNative, webkit } = bridges();
  reactNative?.(JSON.stringify(message));
  webkit?.(message);
  return reactNative !== null || webkit !== null;
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
