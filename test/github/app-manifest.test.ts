import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HANDLED_EVENTS } from '../../src/github/app/app.js';

const manifest = parse(readFileSync(new URL('../../app.yml', import.meta.url), 'utf8')) as {
  name: string;
  default_events: string[];
  default_permissions: Record<string, string>;
};

describe('app.yml', () => {
  it('subscribes to every event the App handles', () => {
    const handled = new Set(HANDLED_EVENTS.map((e) => e.split('.')[0]));
    expect([...handled].sort()).toEqual(['check_run', 'check_suite', 'issue_comment', 'merge_group', 'pull_request']);
    expect([...manifest.default_events].sort()).toEqual([...handled].sort());
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
      merge_queues: 'read',
    });
  });
});
