import { describe, expect, it } from 'vitest';
import { queueYaml } from '../../../test/detect/fixtures.js';
import { kueueParser } from './kueue.js';

describe('Kueue parser: files with no extension', () => {
  const queue = queueYaml({ name: 'q', flavors: [['f', 'nvidia.com/gpu', '2']] });

  it('reads one that holds objects, as kustomize does when a kustomization names it', () => {
    expect(kueueParser.acceptsPath?.('gpu-queues')).toBe(true);
    expect(kueueParser.mightContain('gpu-queues', queue)).toBe(true);
    expect(kueueParser.parse('gpu-queues', queue).decls.map((d) => d.gpus)).toEqual([2]);
  });

  it('leaves one without objects, and build files, alone', () => {
    expect(kueueParser.mightContain('gpu-queues', 'ClusterQueue: see the docs\n')).toBe(false);
    expect(kueueParser.mightContain('Makefile', queue)).toBe(false);
    expect(kueueParser.mightContain('Dockerfile', queue)).toBe(false);
  });
});
