import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PULL_REQUEST_EVENTS } from '../../src/github/handlers/pull-request.js';

const manifest = parse(readFileSync(new URL('../../app.yml', import.meta.url), 'utf8')) as {
  name: string;
  default_events: string[];
  default_permissions: Record<string, string>;
};

describe('app.yml', () => {
  it('subscribes to every event the App handles', () => {
    const handled = new Set(PULL_REQUEST_EVENTS.map((e) => e.split('.')[0]));
    for (const event of handled) expect(manifest.default_events).toContain(event);
  });

  it('asks for the permissions the App uses, and no more than it needs', () => {
    expect(manifest.name).toBe('gpu-justify');
    expect(manifest.default_permissions).toEqual({
      checks: 'write',
      contents: 'read',
      pull_requests: 'write',
      issues: 'write',
      metadata: 'read',
      members: 'read',
    });
  });
});
