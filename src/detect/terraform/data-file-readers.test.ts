import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../detect-changes.js';
import { listingPr } from '../../../test/detect/listing-tree.js';
import type { Tree } from '../../../test/detect/listing-tree.js';

/**
 * A GPU pool whose size a Terraform configuration reads from a data file of the tree
 * (`yamldecode(file(…))`, `jsondecode(file(…))`): a pull request that changes only the data file
 * changes the pool. Generated over the decoder, where the file sits and how the path is written.
 */

type Format = 'yaml' | 'json';
type Place = 'beside' | 'data-folder' | 'two-down';

const DATA: Record<Format, (max: number, disk: number) => string> = {
  yaml: (max, disk) => `gpu:\n  max: ${max}\n  disk: ${disk}\n`,
  json: (max, disk) => `${JSON.stringify({ gpu: { max, disk } }, null, 2)}\n`,
};

const PLACES: Record<Place, string> = { beside: 'pools', 'data-folder': 'data/pools', 'two-down': 'config/gke/pools' };

function tree(format: Format, place: Place, prefix: string, max: number, disk = 100): { files: Tree; data: string } {
  const rel = `${PLACES[place]}.${format}`;
  const decode = format === 'yaml' ? 'yamldecode' : 'jsondecode';
  const main = `locals {
  pools = ${decode}(file("${prefix}${rel}"))
}

resource "google_container_node_pool" "gpu" {
  name    = "gpu"
  cluster = "c1"
  autoscaling {
    min_node_count = 0
    max_node_count = local.pools.gpu.max
  }
  node_config {
    machine_type = "a2-highgpu-1g"
    disk_size_gb = local.pools.gpu.disk
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`;
  return { files: { 'infra/gke/main.tf': main, [`infra/gke/${rel}`]: DATA[format](max, disk) }, data: `infra/gke/${rel}` };
}

const shape = fc.record({
  format: fc.constantFrom<Format>('yaml', 'json'),
  place: fc.constantFrom<Place>('beside', 'data-folder', 'two-down'),
  prefix: fc.constantFrom('${path.module}/', ''),
});

describe('Terraform data files read through file()', () => {
  it('a pool size changed in the data file alone is counted, and the data file read', async () => {
    await fc.assert(
      fc.asyncProperty(shape, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), async (s, from, more) => {
        const base = tree(s.format, s.place, s.prefix, from);
        const head = tree(s.format, s.place, s.prefix, from + more);
        const r = await detectChanges(listingPr(base.files, head.files));
        expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[from, from + more]]);
        expect(r.coverage.find((c) => c.file === base.data)?.state).toBe('read');
      }),
      { numRuns: 24 },
    );
  });

  it('a value of the data file no GPU count reads stays no change', async () => {
    await fc.assert(
      fc.asyncProperty(shape, fc.integer({ min: 1, max: 20 }), async (s, max) => {
        const base = tree(s.format, s.place, s.prefix, max, 100);
        const head = tree(s.format, s.place, s.prefix, max, 200);
        const r = await detectChanges(listingPr(base.files, head.files));
        expect(r.changes).toEqual([]);
        expect(r.coverage.find((c) => c.file === base.data)?.state).not.toBe('not-followed');
      }),
      { numRuns: 12 },
    );
  });
});
