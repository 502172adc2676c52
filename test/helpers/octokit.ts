import { ProbotOctokit } from 'probot';

/** An installation-style client pointed at a fake GitHub, with retries and throttling off. */
export function testOctokit(baseUrl: string): InstanceType<typeof ProbotOctokit> {
  return new ProbotOctokit({
    auth: { token: 'ghs_test' },
    baseUrl,
    retry: { enabled: false },
    throttle: { enabled: false },
  });
}
