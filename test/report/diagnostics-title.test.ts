import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/domain/index.js';
import { diagnosticsTitle } from '../../src/report/tables.js';

const at = (severity: Diagnostic['severity']): Diagnostic => ({ file: 'pools.tf', line: 3, severity, message: 'm' });

describe('diagnosticsTitle', () => {
  it('calls notes notes, and problems problems', () => {
    expect(diagnosticsTitle([at('info'), at('info')])).toBe('Notes on the files (2)');
    expect(diagnosticsTitle([at('warning')])).toBe('Problems reading the files (1)');
    expect(diagnosticsTitle([at('error'), at('warning'), at('info')])).toBe('Problems reading the files (2) and notes (1)');
  });
});
