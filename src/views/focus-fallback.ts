// Fluent gives focus back to what had it before a dialog opened. When that was nothing (the welcome
// screen opens at start), is gone (the welcome screen's upload button, once the upload modal replaced
// it), or the dialog's screen itself is left (the sign confirmation opening the document), focus falls to
// <body> and a keyboard user starts again from the top: the page's main region takes it instead. Watched
// for a moment, since a dialog leaves the page only after its closing animation.
const WATCH_MS = 1000;

/** Starts watching; the answer stops it (an effect's cleanup). */
export function focusMainIfLost(): () => void {
  const until = performance.now() + WATCH_MS;
  let frame = 0;
  const watch = () => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) {
      document.getElementById('main')?.focus();
      return;
    }
    const isInDialog = focused.closest('[role=dialog], [role=alertdialog]') !== null;
    if (isInDialog && performance.now() < until) frame = window.requestAnimationFrame(watch);
  };
  frame = window.requestAnimationFrame(watch);
  return () => window.cancelAnimationFrame(frame);
}
