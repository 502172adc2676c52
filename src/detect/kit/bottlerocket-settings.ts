/** A Bottlerocket setting read from user data: its value and the line it is on (1-based, in the TOML). */
export interface TomlSetting {
  value: string | number | boolean;
  line: number;
}

const TABLE = /^\s*\[\s*([^\]]+?)\s*\]\s*(?:#.*)?$/;
const PAIR = /^\s*([A-Za-z0-9_.\-"' ]+?)\s*=\s*(.+?)\s*(?:#[^"']*)?$/;

function unquote(key: string): string {
  return key
    .split('.')
    .map((k) => k.trim().replace(/^["']|["']$/g, ''))
    .join('.');
}

function scalar(raw: string): string | number | boolean {
  const s = raw.trim();
  if (/^["'].*["']$/.test(s)) return s.slice(1, -1);
  if (s === 'true' || s === 'false') return s === 'true';
  if (/^[+-]?\d+$/.test(s)) return Number(s);
  return s;
}

/**
 * The flat settings of Bottlerocket user data (TOML): `[a.b]` tables and `key = value` pairs,
 * dotted keys joined to full names (`settings.kubelet-device-plugins.nvidia.time-slicing.replicas`).
 * Only scalars: arrays and inline tables are not settings this reads.
 */
export function bottlerocketSettings(toml: string): Map<string, TomlSetting> {
  const out = new Map<string, TomlSetting>();
  let table = '';
  toml.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const t = TABLE.exec(line);
    if (t?.[1] !== undefined && !line.trim().startsWith('[[')) {
      table = unquote(t[1]);
      return;
    }
    const p = PAIR.exec(line);
    if (p?.[1] === undefined || p[2] === undefined || line.trim().startsWith('#')) return;
    const key = unquote(p[1]);
    out.set(table === '' ? key : `${table}.${key}`, { value: scalar(p[2]), line: i + 1 });
  });
  return out;
}

const NVIDIA = 'settings.kubelet-device-plugins.nvidia';

/** Bottlerocket's time-slicing factor from its settings; null when they set no sharing. */
export type BottlerocketSharing = { factor: number; line: number } | { unreadable: string; line: number } | null;

/**
 * Time-slicing applies when `device-sharing-strategy` is `time-slicing`; `replicas` is then the
 * GPUs advertised per physical GPU. `get` reads a setting by its full name.
 */
export function bottlerocketSharing(get: (key: string) => TomlSetting | undefined): BottlerocketSharing {
  const strategy = get(`${NVIDIA}.device-sharing-strategy`);
  const replicas = get(`${NVIDIA}.time-slicing.replicas`);
  if (!strategy && !replicas) return null;
  // Without the strategy (`none` by default) or with another one, replicas are not applied.
  if (strategy?.value !== 'time-slicing') return { factor: 1, line: (strategy ?? replicas)?.line ?? 1 };
  if (!replicas) return { unreadable: 'time-slicing is on but time-slicing.replicas is not set', line: strategy.line };
  const n = replicas.value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 1024) {
    return { unreadable: `time-slicing.replicas is ${JSON.stringify(n)}, not a count`, line: replicas.line };
  }
  return { factor: Math.max(1, n), line: replicas.line };
}
