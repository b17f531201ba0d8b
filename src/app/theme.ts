// The theme preference's store, as the settings screen's selector reads and changes it. The store itself
// (src/services/theme.ts) paints the page and keeps the choice on this device.
export {
  getThemePreference,
  isThemePreference,
  setThemePreference,
  subscribeTheme,
  THEME_PREFERENCES,
  type ThemePreference,
} from '../services/theme';
