import { PrometheusSource } from './prometheus-source.js';
import { prometheusConfig } from './prometheus/config.js';
import type { PrometheusConfig, PrometheusEnv } from './prometheus/config.js';
import { SnapshotSource, readSnapshot } from './snapshot.js';
import type { TelemetrySource } from './source.js';

/** How to open each kind of source; every entry passes the same contract test. */
export type SourceSpec =
  | {
      kind: 'prometheus';
      url?: string;
      env?: PrometheusEnv;
      settings?: Partial<Omit<PrometheusConfig, 'url' | 'headers' | 'secrets'>>;
      /** The finest range-query step, seconds. */
      minStepSeconds?: number;
    }
  | { kind: 'snapshot'; file: string };

type Opener<K extends SourceSpec['kind']> = (spec: Extract<SourceSpec, { kind: K }>) => Promise<TelemetrySource>;

export const SOURCE_KINDS: { [K in SourceSpec['kind']]: { live: boolean; open: Opener<K> } } = {
  prometheus: {
    live: true,
    open: async (spec) =>
      new PrometheusSource(
        prometheusConfig(spec.env, { ...spec.settings, ...(spec.url === undefined ? {} : { url: spec.url }) }),
        spec.minStepSeconds === undefined ? {} : { minStepSeconds: spec.minStepSeconds },
      ),
  },
  snapshot: {
    live: false,
    open: async (spec) => new SnapshotSource(await readSnapshot(spec.file), `snapshot ${spec.file}`),
  },
};

/** Opens the source a CLI flag or the App's environment names. Configuration errors throw. */
export function openSource(spec: SourceSpec): Promise<TelemetrySource> {
  switch (spec.kind) {
    case 'prometheus':
      return SOURCE_KINDS.prometheus.open(spec);
    case 'snapshot':
      return SOURCE_KINDS.snapshot.open(spec);
  }
}
