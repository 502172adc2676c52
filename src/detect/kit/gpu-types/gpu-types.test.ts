import { describe, expect, it } from 'vitest';
import { costOf } from '../../cost.js';
import {
  acceleratorModel,
  defaultPricePerGpuHour,
  GPU_INSTANCE_TYPES,
  lookupInstanceType,
  looksLikeGpuType,
  pricePerGpuHour,
} from './index.js';
import { corpusFiles } from '../../../../test/detect/corpus.js';
import { loadAllReal } from '../../../../test/detect/real-fixtures.js';

// Instance / machine / VM type names as they appear in infrastructure files.
const TYPE_RE =
  /\b(?:p[0-9][a-z0-9-]*|g[0-9][a-z0-9]*|gr6)\.[0-9]*x?large\b|\b(?:a[234]|g2)-(?:highgpu|megagpu|ultragpu|edgegpu|standard)-[0-9a-z]+\b|\bStandard_N[A-Za-z0-9_]+/g;

describe('GPU instance catalog', () => {
  it('covers every GPU instance type that appears anywhere in the corpus', () => {
    const seen = new Set(corpusFiles().flatMap((f) => f.text.match(TYPE_RE) ?? []));
    expect(seen.size).toBeGreaterThan(10);
    const missing = [...seen].filter((t) => lookupInstanceType(t) === null);
    expect(missing).toEqual([]);
  });

  it('knows the GPUs per instance the corpus relies on', () => {
    const gpus = (t: string) => lookupInstanceType(t)?.gpus;
    expect([
      gpus('p4d.24xlarge'),
      gpus('p5e.48xlarge'),
      gpus('g5.12xlarge'),
      gpus('g5.xlarge'),
      gpus('p3.8xlarge'),
      gpus('p3dn.24xlarge'),
      gpus('a3-megagpu-8g'),
      gpus('g2-standard-4'),
      gpus('Standard_NC48ads_A100_v4'),
    ]).toEqual([8, 8, 4, 1, 4, 8, 8, 1, 2]);
  });

  it('covers every GPU instance type in the real-file fixtures too', () => {
    const texts = Object.values(loadAllReal());
    const seen = new Set(texts.flatMap((t) => t.match(TYPE_RE) ?? []));
    expect(seen.size).toBeGreaterThan(5);
    expect([...seen].filter((t) => looksLikeGpuType(t) && lookupInstanceType(t) === null)).toEqual([]);
  });

  it('knows previous-generation types older repositories still name (documented GPU counts)', () => {
    const row = (t: string) => [lookupInstanceType(t)?.gpus, lookupInstanceType(t)?.gpuModel];
    expect([row('p2.xlarge'), row('p2.16xlarge'), row('g3s.xlarge'), row('g3.16xlarge')]).toEqual([
      [1, 'K80'],
      [16, 'K80'],
      [1, 'M60'],
      [4, 'M60'],
    ]);
    expect([row('Standard_NC6'), row('Standard_NC24r'), row('Standard_NC12s_v2'), row('Standard_ND24rs'), row('Standard_NV12')]).toEqual([
      [1, 'K80'],
      [4, 'K80'],
      [2, 'P100'],
      [4, 'P40'],
      [2, 'M60'],
    ]);
  });

  it('looks Azure sizes up case-insensitively, others exactly', () => {
    expect(lookupInstanceType('Standard_NC40ADS_H100_V5')?.gpuModel).toBe('H100');
    expect(lookupInstanceType('P5.48XLARGE')).toBeNull();
  });

  it('has a positive price and GPU count for every row, and no duplicate names', () => {
    for (const row of GPU_INSTANCE_TYPES) {
      expect(row.gpus).toBeGreaterThan(0);
      expect(row.usdPerGpuHour).toBeGreaterThan(0);
      expect(defaultPricePerGpuHour(row.gpuModel)).not.toBeNull();
    }
    const names = GPU_INSTANCE_TYPES.map((r) => r.type.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it.each([
    ['p5.4xlarge', true],
    ['p6-b200.48xlarge', true],
    ['g7e.2xlarge', true],
    ['gr6.4xlarge', true],
    ['g4ad.xlarge', false],
    ['m5.large', false],
    ['a3-ultragpu-8g', true],
    ['a4-highgpu-8g', true],
    ['n1-standard-4', false],
    ['Standard_ND96isr_H200_v5', true],
    ['Standard_NV16as_v4', false],
    ['Standard_D4s_v5', false],
  ])('looksLikeGpuType(%s) = %s', (type, expected) => {
    expect(looksLikeGpuType(type)).toBe(expected);
  });

  it.each([
    ['nvidia-tesla-a100', 'A100'],
    ['nvidia-h100-80gb', 'H100'],
    ['nvidia-l4', 'L4'],
    ['nvidia-tesla-t4', 'T4'],
    ['nvidia-h100-mega-80gb', 'H100'],
    ['nvidia-a100-80gb', 'A100'],
    ['nvidia-h200-141gb', 'H200'],
    ['amd-mi300x', null],
  ])('acceleratorModel(%s) = %s', (type, model) => {
    expect(acceleratorModel(type)).toBe(model);
  });

  it('prices a change from the override map first, then the default', () => {
    expect(pricePerGpuHour('H100')).toBe(defaultPricePerGpuHour('H100'));
    expect(pricePerGpuHour('H100', { H100: 2 })).toBe(2);
    expect(pricePerGpuHour(null)).toBeNull();
    expect(costOf({ kind: 'eksctl-nodegroup', gpuModel: 'H100', delta: 8 }, { H100: 2.5 })).toEqual({
      usdPerGpuHour: 2.5,
      usdPerMonthDelta: 8 * 2.5 * 730,
    });
    expect(costOf({ kind: 'eksctl-nodegroup', gpuModel: 'H100', delta: -8 }, { H100: 2.5 }).usdPerMonthDelta).toBe(-14600);
    expect(costOf({ kind: 'gpu-sharing', gpuModel: null, delta: 3 })).toEqual({ usdPerGpuHour: null, usdPerMonthDelta: null });
    expect(costOf({ kind: 'karpenter-nodepool', gpuModel: 'Mystery', delta: 3 })).toEqual({ usdPerGpuHour: null, usdPerMonthDelta: null });
  });
});
