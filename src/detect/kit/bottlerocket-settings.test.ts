import { describe, expect, it } from 'vitest';
import { bottlerocketSettings, bottlerocketSharing } from './bottlerocket-settings.js';

const sharing = (toml: string) => {
  const s = bottlerocketSettings(toml);
  return bottlerocketSharing((k) => s.get(k));
};

describe('Bottlerocket user data', () => {
  it('tables and pairs make full setting names, with their lines', () => {
    const toml = [
      '[settings.kubelet-device-plugins.nvidia]',
      'device-sharing-strategy = "time-slicing"',
      '',
      '[settings.kubelet-device-plugins.nvidia.time-slicing]',
      'replicas = 4 # four per GPU',
      'rename-by-default = false',
    ].join('\n');
    expect(sharing(toml)).toEqual({ factor: 4, line: 5 });
    expect(bottlerocketSettings(toml).get('settings.kubelet-device-plugins.nvidia.time-slicing.rename-by-default')).toEqual({
      value: false,
      line: 6,
    });
  });

  it('dotted and quoted keys name the same settings', () => {
    const toml = [
      '[settings]',
      '"kubelet-device-plugins".nvidia.device-sharing-strategy = "time-slicing"',
      'kubelet-device-plugins.nvidia.time-slicing.replicas = 8',
    ].join('\n');
    expect(sharing(toml)).toEqual({ factor: 8, line: 3 });
  });

  it('replicas without the time-slicing strategy are not applied; a strategy without replicas is unreadable', () => {
    expect(sharing('[settings.kubelet-device-plugins.nvidia.time-slicing]\nreplicas = 4\n')).toEqual({ factor: 1, line: 2 });
    expect(sharing('[settings.kubelet-device-plugins.nvidia]\ndevice-sharing-strategy = "time-slicing"\n')).toEqual({
      line: 2,
      unreadable: 'time-slicing is on but time-slicing.replicas is not set',
    });
    expect(
      sharing(
        '[settings.kubelet-device-plugins.nvidia]\ndevice-sharing-strategy = "time-slicing"\n[settings.kubelet-device-plugins.nvidia.time-slicing]\nreplicas = "{{ .Replicas }}"\n',
      ),
    ).toMatchObject({ line: 4 });
    expect(sharing('[settings.kubernetes]\nmax-pods = 110\n')).toBeNull();
  });
});
