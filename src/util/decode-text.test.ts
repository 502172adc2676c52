import { describe, expect, it } from 'vitest';
import { decodeText } from './decode-text.js';

const TEXT = 'apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n# Équipe\nspec:\n  nominalQuota: 8\n';

function utf16(text: string, order: 'le' | 'be'): Buffer {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  return order === 'le' ? le : le.swap16();
}

describe('decodeText', () => {
  it.each(['le', 'be'] as const)('reads UTF-16 %s opened by a byte order mark as kubectl does, the mark dropped', (order) => {
    expect(decodeText(utf16(TEXT, order))).toBe(TEXT);
  });

  it('reads UTF-8 as UTF-8, a UTF-8 byte order mark kept for the YAML readers to skip', () => {
    expect(decodeText(Buffer.from(TEXT))).toBe(TEXT);
    expect(decodeText(Buffer.from(`\ufeff${TEXT}`))).toBe(`\ufeff${TEXT}`);
  });

  it('leaves bytes that only begin like UTF-16 as UTF-8 reads them (binary stays binary)', () => {
    const odd = Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x62]);
    expect(decodeText(odd)).toBe(odd.toString('utf8'));
    const nul = Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x61, 0x00]);
    expect(decodeText(nul)).toBe(nul.toString('utf8'));
  });

  it('reads a subarray of a larger buffer alone', () => {
    const whole = Buffer.concat([Buffer.from('xx'), utf16('ab', 'le')]);
    expect(decodeText(whole.subarray(2))).toBe('ab');
  });
});
