import { useSyncExternalStore } from 'react';
import { getLocaleState, subscribeLocale, type LocaleState } from './locale';

export function useLocaleState(): LocaleState {
  return useSyncExternalStore(subscribeLocale, getLocaleState, getLocaleState);
}
