// Fluent's light theme, the one every page starts with. The build writes its values out in this module's
// place (vite.config.ts lightThemeValues), so the colour palettes and the code that derives the theme
// from them (about 2.5 KB gzipped, and work at every start) stay out of the first screen's chunk.
export { webLightTheme } from '@fluentui/react-components';
