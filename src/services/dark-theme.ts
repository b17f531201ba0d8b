// Fluent's dark theme on its own, so that it loads only where dark is in effect (src/services/theme.ts);
// the start-up script preloads it on a dark page (vite.config.ts names its chunk in the page).
export { webDarkTheme } from '@fluentui/react-components';
