import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../report/index.js';
import { CHECK_NAME } from './check-run.js';
import { DEFAULT_INSTANCE, instanceFromEnv, InstanceNameError, namedInstance } from './instance.js';
import { SUGGESTION_MARKER } from './suggestions.js';

describe('instance names', () => {
  it('unnamed: every marker and the check name exactly as before', () => {
    for (const env of [{}, { GPU_JUSTIFY_INSTANCE: '' }, { GPU_JUSTIFY_INSTANCE: '  ' }]) {
      expect(instanceFromEnv(env)).toEqual(DEFAULT_INSTANCE);
    }
    expect(DEFAULT_INSTANCE).toEqual({
      name: null,
      commentMarker: '<!-- gpu-justify:comment -->',
      suggestionMarker: '<!-- gpu-justify:suggestion -->',
      checkName: 'gpu-justify',
    });
  });

  it.each(['staging', 'prod', 'a', 'eu-west-1', 'x'.repeat(32)])('%s: markers of its own that no other instance finds', (name) => {
    const named = instanceFromEnv({ GPU_JUSTIFY_INSTANCE: name });
    expect(named).toEqual({
      name,
      commentMarker: `<!-- gpu-justify:comment:${name} -->`,
      suggestionMarker: `<!-- gpu-justify:suggestion:${name} -->`,
      checkName: `${CHECK_NAME} (${name})`,
    });
    // Found by substring: neither marker holds the unnamed one, nor that of a name it extends.
    for (const marker of [named.commentMarker, named.suggestionMarker]) {
      expect(marker).not.toContain(COMMENT_MARKER);
      expect(marker).not.toContain(SUGGESTION_MARKER);
      expect(marker).not.toContain(namedInstance(`${name.slice(0, 31)}z`).commentMarker);
    }
    expect(namedInstance(`${name.slice(0, 30)}-z`).commentMarker).not.toContain(named.commentMarker);
  });

  it.each(['Staging', 'a_b', '-x', 'x-', 'x'.repeat(33), 'prod env', 'x-->', 'ü', 'a:b', '../x'])('refuses %j', (name) => {
    expect(() => namedInstance(name)).toThrow(InstanceNameError);
    expect(() => namedInstance(name)).toThrow(expect.objectContaining({ kind: 'bad-input' }));
    expect(() => instanceFromEnv({ GPU_JUSTIFY_INSTANCE: name })).toThrow(/GPU_JUSTIFY_INSTANCE must be/);
  });
});
