// The browser's side of /app/download/:id. The link is a short-lived signed storage URL answered with
// Content-Disposition: attachment, so assigning it downloads the file without leaving the app.
export function startDownload(url: string): void {
  window.location.assign(url);
}
