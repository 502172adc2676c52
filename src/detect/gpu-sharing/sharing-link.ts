import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, Diagnostic, PoolSharing, SharingLink, SharingMode, SharingSource } from '../../domain/index.js';
import { DEVICE_PLUGIN_CONFIG_LABEL } from '../kit/device-plugin-label.js';
import type { SharingConfig } from './sharing-sources.js';

type Resolved =
  | { factor: number; mode: SharingMode; source: SharingSource; how: string }
  | { code: Extract<PoolSharing, { state: 'unknown' }>['code']; source: SharingSource; why: string };

const where = (s: SharingSource) => `${s.name} (${s.file}:${s.line})`;

/**
 * Ties each Karpenter pool to the sharing config its nodes get, the way the cluster does: the
 * EC2NodeClass its `nodeClassRef` names (Bottlerocket settings), the device-plugin config its
 * `nvidia.com/device-plugin.config` label picks (or the default one), a NodeOverlay that sets the
 * nvidia.com/gpu capacity of its instance types. A pool's limit counts advertised GPUs, so with a
 * factor known its physical GPUs are the limit ÷ the factor; with a config in view that cannot be
 * tied to it, the pool is marked unknown and a warning says so. Mutates the declarations.
 */
export function linkSharing(decls: readonly CapacityDecl[], configs: readonly SharingConfig[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (configs.length === 0) return out;
  for (const d of decls) {
    const link = d.sharingLink;
    if (!link) continue;
    const r = resolve(d.name, link, configs);
    if (r === null) continue;
    const pool = `NodePool ${d.name}`;
    if ('code' in r) {
      d.sharing = { state: 'unknown', code: r.code, source: r.source };
      out.push(
        diagnostic(
          d.file,
          d.line,
          'warning',
          `${pool}: cannot tell its physical GPUs (${r.code}): ${r.why}; its ${d.gpus} GPUs may be shared ones`,
        ),
      );
      continue;
    }
    const f = r.factor;
    const fromLimit = link.limit === null ? Infinity : Math.floor(link.limit / f);
    const physical = Math.min(fromLimit, link.fromNodes ?? Infinity);
    const schedulable = Math.min(link.limit ?? Infinity, (link.fromNodes ?? Infinity) * f);
    if (!Number.isFinite(physical)) continue;
    d.gpus = physical;
    d.sharing = { state: 'shared', factor: f, mode: r.mode, source: r.source, schedulable };
    if (f > 1) {
      out.push(
        diagnostic(
          d.file,
          d.line,
          'info',
          `${pool}: each GPU is advertised as ${f} (${r.how}), so its ${schedulable} schedulable GPUs are ${physical} physical GPUs`,
        ),
      );
    }
  }
  return out;
}

function resolve(pool: string, link: SharingLink, configs: readonly SharingConfig[]): Resolved | null {
  const classes = configs.filter((c) => c.type === 'node-class');
  const own = classes.filter((c) => link.nodeClass !== null && c.nodeClass === link.nodeClass);
  const first = own[0];
  if (first) {
    if (first.factor === null) {
      return { code: 'sharing-unreadable', source: first.at, why: `the time-slicing settings of ${where(first.at)} cannot be read` };
    }
    return {
      factor: first.factor,
      mode: 'bottlerocket-time-slicing',
      source: first.at,
      how: `Bottlerocket time-slicing in ${where(first.at)}`,
    };
  }
  const plugin = fromDevicePlugin(link, configs);
  if (plugin) return plugin;
  const overlay = fromOverlays(pool, link, configs);
  if (overlay) return overlay;
  return null;
}

function fromDevicePlugin(link: SharingLink, configs: readonly SharingConfig[]): Resolved | null {
  const plugin = configs.filter((c) => c.type === 'device-plugin');
  const [any] = plugin;
  if (!any) return null;
  let key = link.deviceConfig;
  let how = `its ${DEVICE_PLUGIN_CONFIG_LABEL} label, ${key ?? ''}`;
  if (key === null) {
    const defaults = [...new Set(configs.flatMap((c) => (c.type === 'device-plugin-default' ? [c.key] : [])))];
    const keys = [...new Set(plugin.map((c) => c.key ?? ''))];
    if (defaults.length > 1) {
      return { code: 'sharing-ambiguous', source: any.at, why: `device-plugin defaults ${defaults.join(', ')} disagree` };
    }
    if (defaults[0] !== undefined) {
      key = defaults[0];
      how = `the device plugin's default config, ${key}`;
    } else if (keys.length === 1) {
      // The device plugin takes its one config as the default.
      key = keys[0] ?? '';
      how = `the device plugin's only config, ${where(any.at)}`;
    } else {
      return {
        code: 'sharing-ambiguous',
        source: any.at,
        why: `its nodes carry no ${DEVICE_PLUGIN_CONFIG_LABEL} label and no default is named among the device-plugin configs ${plugin.map((c) => c.at.name).join(', ')}`,
      };
    }
  }
  const matches = plugin.filter((c) => (c.key ?? '') === key);
  const [match] = matches;
  if (!match) {
    return {
      code: 'sharing-unlinked',
      source: any.at,
      why: `device-plugin config ${key} is not among ${plugin.map((c) => c.at.name).join(', ')}`,
    };
  }
  if (matches.some((c) => c.factor === null)) {
    return { code: 'sharing-unreadable', source: match.at, why: `the replicas of ${where(match.at)} cannot be read` };
  }
  if (new Set(matches.map((c) => c.factor)).size > 1) {
    return {
      code: 'sharing-ambiguous',
      source: match.at,
      why: `configs named ${key} disagree: ${matches.map((c) => where(c.at)).join(', ')}`,
    };
  }
  if (match.renamed) {
    return {
      code: 'sharing-ambiguous',
      source: match.at,
      why: `${where(match.at)} renames the shared resource, so the nodes' nvidia.com/gpu count is not its replicas`,
    };
  }
  return { factor: match.factor ?? 1, mode: match.mode, source: match.at, how: `${how}, ${where(match.at)}` };
}

function fromOverlays(pool: string, link: SharingLink, configs: readonly SharingConfig[]): Resolved | null {
  const overlays = configs.flatMap((c) => (c.type === 'node-overlay' && (c.pools === null || c.pools.includes(pool)) ? [c] : []));
  const [first] = overlays;
  if (!first) return null;
  const factors = overlays.map((o) => {
    const perNode = o.gpusPerNode ?? link.gpusPerNode;
    return o.capacity === null || perNode === null ? null : o.capacity / perNode;
  });
  const unread = overlays.find((_, i) => factors[i] === null);
  if (unread) {
    return {
      code: 'sharing-unreadable',
      source: unread.at,
      why: `${where(unread.at)} sets the nvidia.com/gpu capacity, but the GPUs per node it applies to are unknown`,
    };
  }
  const distinct = new Set(factors);
  const [factor] = distinct;
  if (distinct.size > 1 || factor === undefined || factor === null || !Number.isInteger(factor) || factor < 1) {
    return {
      code: 'sharing-ambiguous',
      source: first.at,
      why: `the NodeOverlays ${overlays.map((o) => o.at.name).join(', ')} give no single whole number of GPUs advertised per physical GPU`,
    };
  }
  return {
    factor,
    mode: 'node-overlay',
    source: first.at,
    how: `NodeOverlay capacity in ${overlays.map((o) => where(o.at)).join(', ')}`,
  };
}
