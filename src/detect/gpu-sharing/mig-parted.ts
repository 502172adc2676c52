import type { CapacityPart } from '../../domain/index.js';
import type { Manifest } from '../kit/manifests.js';
import type { Findings } from '../kit/parser-kit.js';
import { readCount } from '../kit/counts.js';
import { mapGet, nodeLine, scalarString, scalarText, scalarValue, seqItems } from '../kit/yaml-nodes.js';

const SHARING_KIND = 'gpu-sharing' as const;

/**
 * mig-parted layouts: one declaration per named layout, `gpus` = MIG devices advertised per
 * physical GPU (1 for a GPU with MIG disabled). A layout listing device indices averages over
 * the GPUs it lists; each device group is one part.
 */
export function readMigLayouts(m: Manifest, found: Findings): void {
  const configs = mapGet(m.root, 'mig-configs');
  if (!configs || typeof configs !== 'object' || !('items' in configs)) return;
  for (const pair of (configs as { items: { key: unknown; value: unknown }[] }).items) {
    const layout = scalarText(pair.key);
    if (layout === '') continue;
    const name = `mig-parted/${layout}`;
    const parts: CapacityPart[] = [];
    let physical = 0;
    let advertised = 0;
    let unreadable: number | null = null;
    for (const group of seqItems(pair.value)) {
      const line = nodeLine(group, m.ctx.lc) ?? m.line;
      const devicesNode = mapGet(group, 'devices');
      const indices = seqItems(devicesNode).length;
      const all = scalarString(devicesNode) === 'all';
      const enabled = scalarValue(mapGet(group, 'mig-enabled')) === true;
      const devices = mapGet(group, 'mig-devices');
      let perGpu = 1;
      if (enabled) {
        perGpu = 0;
        for (const item of (devices as { items?: { value: unknown }[] } | null)?.items ?? []) {
          const count = readCount(item.value, m.ctx, line);
          // A device count that is not a count is reported, never summed as 0 or as negative.
          if (count === null || !count.ok) {
            const at = count?.line ?? line;
            found.note(at, 'warning', `${name}: a mig-devices count ${count ? count.error : 'is empty'}; the layout is not counted`);
            unreadable ??= at;
            continue;
          }
          perGpu += count.value;
        }
      }
      const gpusInGroup = all ? 1 : Math.max(1, indices);
      physical += gpusInGroup;
      advertised += perGpu * gpusInGroup;
      parts.push({
        label: all
          ? 'all devices'
          : `devices ${seqItems(devicesNode)
              .map((d) => String(scalarValue(d)))
              .join(',')}`,
        resource: enabled ? 'nvidia.com/mig' : 'nvidia.com/gpu',
        gpus: perGpu * gpusInGroup,
        line,
      });
    }
    if (parts.length === 0) continue;
    if (unreadable !== null) {
      found.unknown(SHARING_KIND, name, unreadable);
      continue;
    }
    const gpus = physical > 0 ? advertised / physical : 0;
    const line = parts[0]?.line ?? m.line;
    found.decls.push({ file: m.ctx.file, line, kind: SHARING_KIND, name, gpuModel: null, gpus, parts });
    found.note(
      line,
      'info',
      `${name}: ${gpus} MIG device(s) advertised per physical GPU; a MIG layout changes the GPUs the scheduler sees, not the hardware`,
    );
  }
}
