/**
 * A file's bytes as the text the readers hand to detection. Git and GitHub store bytes; the tools
 * that apply them decode UTF-8, and `kubectl apply -f` also UTF-16 opened by a byte order mark
 * (cli-runtime's file visitor overrides the decoder on a BOM), as Windows editors save it. Read
 * as UTF-8, such a file is NULs between letters: "binary" to the floor, a capacity change unseen.
 * So a UTF-16 BOM decodes the rest as UTF-16 (the mark dropped, as the applier drops it); bytes
 * that are not valid UTF-16 after the mark stay as UTF-8 reads them (binary, as before).
 */
export function decodeText(bytes: Uint8Array): string {
  const order = utf16Order(bytes);
  if (order !== null) {
    try {
      const text = new TextDecoder(order, { fatal: true }).decode(bytes);
      if (!text.includes('\u0000')) return text;
    } catch {
      // Not UTF-16 after all (an odd length, a lone surrogate): read as any other bytes.
    }
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

function utf16Order(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}
