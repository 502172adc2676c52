import { main } from '../cli/main.js';

/**
 * The Action's entry point (action.yml, `runs.using: node24`). The runner passes each input as
 * `INPUT_<NAME>` (upper case, hyphens kept); the review reads the names the App and the CLI read.
 */
const INPUTS: Record<string, string> = {
  'INPUT_GITHUB-TOKEN': 'GITHUB_TOKEN',
  'INPUT_PROMETHEUS-URL': 'PROMETHEUS_URL',
  'INPUT_PROMETHEUS-BEARER-TOKEN': 'PROMETHEUS_BEARER_TOKEN',
  'INPUT_PROMETHEUS-HEADERS': 'PROMETHEUS_HEADERS',
  'INPUT_OPENCOST-URL': 'OPENCOST_URL',
  INPUT_INSTANCE: 'GPU_JUSTIFY_INSTANCE',
};

/** The environment with each non-empty input under the name the review reads; inputs win. */
export function envWithInputs(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const [input, name] of Object.entries(INPUTS)) {
    const value = env[input]?.trim();
    if (value) out[name] = value;
  }
  return out;
}

export async function runActionEntry(): Promise<number> {
  const env = envWithInputs(process.env);
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;
  return main(['action']);
}
