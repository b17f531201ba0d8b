// Content-Disposition for a download under the user's own file name (RFC 6266 with RFC 8187 filename*).
// The name is user text: it must not break out of the header, smuggle a path, or confuse old browsers.

// Path separators and characters Windows refuses in names become "_", so a saved file lands where the
// user chose, under a name the system accepts.
const UNSAFE_IN_NAME = /[/\\:*?"<>|]/g;
// C0 and C1 controls and DEL could split or corrupt the header line.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is being removed
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function safeName(filename: string): string {
  const cleaned = filename.replace(CONTROL, '').replace(UNSAFE_IN_NAME, '_').trim();
  // A name of only dots would mean "this folder" or "the parent" to some systems.
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'document.pdf' : cleaned;
}

// The quoted-string fallback for clients without filename*: printable ASCII only, no quote or backslash.
function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_');
}

// RFC 8187 attr-char: encodeURIComponent leaves ! ' ( ) * unescaped, which ext-value does not allow.
function encodeExtValue(name: string): string {
  return encodeURIComponent(name).replace(
    /['()*!]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function attachmentDisposition(filename: string): string {
  const name = safeName(filename);
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeExtValue(name)}`;
}
