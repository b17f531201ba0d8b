/// <reference types="vite/client" />

// Merges into Vite's declaration, which only declaration merging (an interface) can extend.
interface ImportMetaEnv {
  /** 'true' makes every actor report to the Stately inspector (also `?inspect` in the URL). */
  readonly VITE_XSTATE_INSPECT?: string;
}
