import { ProbotOctokit } from 'probot';

const TOKEN = 'ghs_test';

/**
 * An installation-style client pointed at a fake GitHub, with retries and throttling off. Its auth
 * answers as an installation's does, on every repository of its owner (`repositorySelection`).
 */
export function testOctokit(baseUrl: string, repositorySelection: 'all' | 'selected' = 'all'): InstanceType<typeof ProbotOctokit> {
  return new ProbotOctokit({
    authStrategy: () => installationAuth(repositorySelection),
    baseUrl,
    retry: { enabled: false },
    throttle: { enabled: false },
  });
}

function installationAuth(repositorySelection: 'all' | 'selected') {
  const auth = () => Promise.resolve({ type: 'token', tokenType: 'installation', token: TOKEN, repositorySelection });
  type Request = InstanceType<typeof ProbotOctokit>['request'];
  const hook = (request: Request, route: string, parameters?: Record<string, unknown>) => {
    const endpoint = request.endpoint.merge(route, parameters);
    endpoint.headers.authorization = `token ${TOKEN}`;
    return request(endpoint as unknown as Parameters<Request>[0]);
  };
  return Object.assign(auth, { hook });
}
