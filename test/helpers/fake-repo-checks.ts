import type { FakeRequest, FakeResponse } from './fake-github.js';
import type { CheckRunState } from './fake-repo-state.js';

/**
 * Check runs as GitHub keeps them: created with a status (or already concluded, with its output),
 * updated in place, concluded by a creation or an update carrying a conclusion; annotations accumulate across updates, the rest of the output is
 * replaced. Each run keeps every request body in `history`.
 */

export function createCheckRun(runs: CheckRunState[], id: number, req: FakeRequest): FakeResponse {
  const body = req.body as Record<string, unknown> & { output?: { annotations?: unknown[] } };
  const { annotations = [], ...output } = body.output ?? {};
  const conclusion = typeof body.conclusion === 'string' ? body.conclusion : null;
  const run: CheckRunState = {
    id,
    head_sha: String(body.head_sha),
    name: String(body.name),
    history: [body],
    status: conclusion ? 'completed' : typeof body.status === 'string' ? body.status : 'queued',
    external_id: typeof body.external_id === 'string' ? body.external_id : '',
    conclusion,
    output: { ...output, annotations },
  };
  runs.push(run);
  return { status: 201, body: { id: run.id, head_sha: run.head_sha, name: run.name, status: run.status, conclusion: run.conclusion } };
}

export function updateCheckRun(runs: CheckRunState[], req: FakeRequest): FakeResponse {
  const run = runs.find((r) => String(r.id) === req.params.id);
  if (!run) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
  const body = req.body as {
    status?: string;
    conclusion?: string;
    output?: { title?: string; summary?: string; text?: string; annotations?: unknown[] };
  };
  run.history.push(body);
  if (body.conclusion) {
    run.status = 'completed';
    run.conclusion = body.conclusion;
  } else if (body.status) {
    run.status = body.status;
  }
  if (body.output) {
    const { annotations = [], ...rest } = body.output;
    run.output = { ...run.output, ...rest, annotations: [...run.output.annotations, ...annotations] };
  }
  return { body: { id: run.id, status: run.status, conclusion: run.conclusion } };
}

/** `GET /repos/{owner}/{repo}/commits/{ref}/check-runs`: the runs on a commit, newest first, by name when asked. */
export function listCheckRuns(runs: CheckRunState[], req: FakeRequest): FakeResponse {
  const name = req.query.get('check_name');
  const found = runs
    .filter((r) => r.head_sha === req.params.ref && (name === null || r.name === name))
    .sort((a, b) => b.id - a.id)
    .map((r) => ({
      id: r.id,
      head_sha: r.head_sha,
      name: r.name,
      external_id: r.external_id,
      status: r.status,
      conclusion: r.conclusion,
      app: { id: 12345, slug: r.app ?? 'gpu-justify', name: r.app ?? 'gpu-justify', owner: { login: 'Codertocat' } },
      output: { title: r.output.title ?? null, summary: r.output.summary ?? null, annotations_count: r.output.annotations.length },
    }));
  return { body: { total_count: found.length, check_runs: found } };
}
