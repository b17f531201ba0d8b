// pdfjs-dist 6.1 and later call two built-ins that Node 20 lacks, and its legacy build no longer brings
// them: without these, every page render fails there with "Promise.withResolvers is not a function". Each
// is defined only where it is missing, so Node 22 and later run pdfjs on their own. Plain JavaScript:
// sandbox-boot.mjs loads it before pdfjs, ahead of the TypeScript loader. Remove it with Node 20.
if (typeof Promise.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers() {
      let resolve;
      let reject;
      const promise = new this((onResolve, onReject) => {
        resolve = onResolve;
        reject = onReject;
      });
      return { promise, resolve, reject };
    },
  });
}

if (typeof ArrayBuffer.prototype.transferToFixedLength !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    // pdfjs trims a grown decode buffer with it. Like the built-in, it detaches the original, so the
    // sandbox's memory holds one of the two once the copy is made.
    value: function transferToFixedLength(newLength) {
      const length = newLength === undefined ? this.byteLength : Math.trunc(Number(newLength));
      if (!Number.isSafeInteger(length) || length < 0) throw new RangeError('Invalid array buffer length');
      const moved = structuredClone(this, { transfer: [this] });
      if (length === moved.byteLength) return moved;
      const resized = new ArrayBuffer(length);
      new Uint8Array(resized).set(new Uint8Array(moved, 0, Math.min(length, moved.byteLength)));
      return resized;
    },
  });
}
