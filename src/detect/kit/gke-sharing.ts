import type { SharingMode } from '../../domain/index.js';

/** GKE's GPU sharing as read: `factor` null when the client count cannot be read. */
export interface GkeSharing {
  factor: number | null;
  mode: SharingMode;
}

/**
 * GKE GPU sharing (`gpu_sharing_config`, Config Connector `gpuSharingConfig`, gcloud
 * `--gpu-sharing-strategy`): with TIME_SHARING or MPS, `max_shared_clients_per_gpu` containers
 * share each GPU and the node advertises that many nvidia.com/gpu per GPU. Another strategy (or
 * none) leaves one per GPU. `strategy` undefined: the value could not be evaluated.
 */
export function gkeSharing(strategy: unknown, clients: unknown): GkeSharing {
  const s = typeof strategy === 'string' ? strategy.toUpperCase().replace(/-/g, '_') : strategy;
  const mode: SharingMode = s === 'MPS' ? 'gke-mps' : 'gke-time-sharing';
  if (s === undefined) return { factor: null, mode };
  if (s !== 'TIME_SHARING' && s !== 'MPS') return { factor: 1, mode };
  const n = typeof clients === 'string' && /^\s*\d+\s*$/.test(clients) ? Number(clients) : clients;
  return { factor: typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 1024 ? n : null, mode };
}
