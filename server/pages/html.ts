// Every value put into server-rendered HTML goes through `escapeHtml`: user text is never markup.
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => ESCAPES[char] ?? char);
}

// The server's own pages' look: the sign-in, sign-up and dev outbox pages.
export const PAGE_STYLE = `
  :root { color-scheme: light; font-family: "Segoe UI", system-ui, -apple-system, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f5f5f5; color: #242424; }
  main { width: min(400px, calc(100vw - 32px)); background: #fff; border-radius: 8px; padding: 32px;
    box-shadow: 0 2px 8px rgba(0,0,0,.14); box-sizing: border-box; }
  h1 { margin: 0 0 4px; font-size: 28px; font-weight: 600; color: #0f6cbd; }
  p.lead { margin: 0 0 24px; color: #616161; }
  label { display: block; font-weight: 600; margin: 16px 0 4px; }
  input { width: 100%; box-sizing: border-box; font: inherit; padding: 8px 10px; border: 1px solid #d1d1d1;
    border-bottom-color: #616161; border-radius: 4px; }
  input:focus { outline: 2px solid #0f6cbd; outline-offset: 1px; }
  button { margin-top: 24px; width: 100%; font: inherit; font-weight: 600; padding: 10px; border: 0;
    border-radius: 4px; background: #0f6cbd; color: #fff; cursor: pointer; }
  button:hover { background: #115ea3; }
  .error { margin: 16px 0 0; padding: 8px 12px; border-radius: 4px; background: #fdf3f4; color: #b10e1c;
    border: 1px solid #f1bbbc; }
  .back { display: inline-block; margin-top: 16px; color: #0f6cbd; }
`;
