// Start-up (spec 001 §1): detect the language and load its catalog, start the inspector only when asked
// for, and mount the app with the token found in local storage and that language, which the shell's
// language actor owns from then on.
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './app/global.css';
import { readToken } from './api/client';
import { App } from './app/app';
import { isInspectorRequested, startInspector } from './app/inspect';
import { preloadForLocation } from './app/preload';
import { readStartLocale } from './i18n/locale';
import { loadStartCatalog } from './i18n/messages';
import { loadThemeInUse } from './services/theme';

async function start(): Promise<void> {
  const storedToken = readToken();
  preloadForLocation(window.location.pathname, storedToken !== null);
  const startLocale = readStartLocale();
  // On a dark page the dark theme's tokens load beside the catalog, so the first render is dark.
  const [messages] = await Promise.all([loadStartCatalog(startLocale.locale), loadThemeInUse()]);
  if (isInspectorRequested(window.location.search, import.meta.env.VITE_XSTATE_INSPECT)) {
    await startInspector();
  }
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const root = createRoot(container);
  // As a transition, React renders the first screen in slices and lets the browser in between, instead
  // of one long task that holds every input and paint back (on a slow phone, several hundred ms).
  startTransition(() =>
    root.render(<App storedToken={storedToken} language={{ ...startLocale, messages }} />),
  );
}

void start();
