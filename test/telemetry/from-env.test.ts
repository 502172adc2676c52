import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { telemetryFromEnv } from '../../src/telemetry/from-env.js';

describe('telemetryFromEnv', () => {
  it('gives no telemetry when the operator configured none', () => {
    expect(telemetryFromEnv({})(DEFAULT_POLICY)).toBeUndefined();
  });

  it('opens Prometheus and OpenCost from the environment, for the default source', () => {
    const input = telemetryFromEnv({ PROMETHEUS_URL: 'http://127.0.0.1:9090/prometheus', OPENCOST_URL: 'http://127.0.0.1:9003' })(
      DEFAULT_POLICY,
    );
    expect(input?.source.description).toContain('127.0.0.1:9090');
    expect(input?.allocation).toBeTypeOf('function');
  });

  it('refuses a source name the operator did not define', () => {
    const provider = telemetryFromEnv({ PROMETHEUS_URL: 'http://127.0.0.1:9090' });
    expect(() => provider({ ...DEFAULT_POLICY, telemetry: 'staging' })).toThrow(/defines only "default"/);
  });

  it('fails at start-up on a bad setting, without echoing the credentials', () => {
    expect(() =>
      telemetryFromEnv({
        PROMETHEUS_URL: 'http://127.0.0.1:9090',
        PROMETHEUS_BEARER_TOKEN: 's3cr3t-token',
        PROMETHEUS_BASIC_AUTH: 'u:p4ss',
      }),
    ).toThrow(match.objectContaining({ kind: 'telemetry-config', message: expect.not.stringMatching(/s3cr3t-token|p4ss/) as unknown }));
  });
});
