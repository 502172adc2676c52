import fc from 'fast-check';
import type { ParseResult } from '../../../src/detect/parser.js';
import { PARSERS } from '../../../src/detect/registry.js';
import { parseCommand } from '../../../src/github/overrides/command-parser.js';
import { parseCatalog } from '../../../src/workloads/catalog.js';
import { parsePolicy } from '../../../src/workloads/policy.js';
import { commentRoundTripProblems, roundTripInputs } from './comment-round-trip.js';
import { redactorInputs, redactorProblems } from './redactor-encodings.js';
import { corpusSeeds, mutatedCorpus } from './inputs.js';
import { catalogTexts, commentBodies, policyTexts, structuredHcl, structuredYaml } from './structured-inputs.js';
import type { Seed } from './inputs.js';

/**
 * One thing to fuzz: a generator of hostile text and a call that must neither throw nor break
 * its output contract. `check` returns the contract violations it found (empty: all good).
 */
export interface FuzzTarget {
  id: string;
  inputs: fc.Arbitrary<string>;
  check(text: string): string[];
}

/** A path each parser accepts, so inputs reach the parse rather than the path filter. */
function pathFor(parserId: string): string {
  return parserId === 'terraform' ? 'infra/gpu/main.tf' : 'clusters/prod/capacity.yaml';
}

/** The output contract every parser promises (docs/json.md): finite, non-negative GPUs. */
function parseProblems(result: ParseResult): string[] {
  const out: string[] = [];
  if (!Array.isArray(result.decls) || !Array.isArray(result.diagnostics)) return ['result is not { decls[], diagnostics[] }'];
  for (const d of result.decls) {
    if (!Number.isFinite(d.gpus) || d.gpus < 0) out.push(`decl ${d.name}: gpus = ${d.gpus}`);
    if (!Number.isInteger(d.line) || d.line < 1) out.push(`decl ${d.name}: line = ${d.line}`);
    for (const p of d.parts) if (!Number.isFinite(p.gpus) || p.gpus < 0) out.push(`decl ${d.name} part ${p.label}: gpus = ${p.gpus}`);
  }
  for (const g of result.diagnostics) {
    // The parsers' own guard turned an exception into a diagnostic: a bug that was caught, not absent.
    if (/ parser failed: /.test(g.message)) out.push(`internal fault caught by the guard: ${g.message.slice(0, 200)}`);
  }
  return out;
}

function forFormat(parserId: string, seeds: readonly Seed[]): fc.Arbitrary<string> {
  const hcl = parserId === 'terraform';
  const own = seeds.filter((s) => (hcl ? /\.(tf|tfvars|example)$/.test(s.path) : !/\.(tf|tfvars|example)$/.test(s.path)));
  return fc.oneof(
    { weight: 4, arbitrary: mutatedCorpus(own.length > 0 ? own : seeds) },
    { weight: 3, arbitrary: hcl ? structuredHcl() : structuredYaml() },
    { weight: 1, arbitrary: mutatedCorpus(seeds) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 2_000 }) },
  );
}

export function fuzzTargets(seeds: readonly Seed[] = corpusSeeds()): FuzzTarget[] {
  const parsers = PARSERS.map((parser): FuzzTarget => {
    const path = pathFor(parser.id);
    return {
      id: `parser:${parser.id}`,
      inputs: forFormat(parser.id, seeds),
      check(text) {
        parser.mightContain(path, text);
        const problems = parseProblems(parser.parse(path, text));
        if (parser.parseSet) {
          problems.push(
            ...parseProblems(
              parser.parseSet([
                { path, text },
                { path: path.replace(/[^/]+$/, 'variables.tf'), text },
              ]),
            ),
          );
        }
        return problems;
      },
    };
  });
  return [
    ...parsers,
    {
      id: 'loader:catalog',
      inputs: fc.oneof(catalogTexts(), mutatedCorpus(seeds)),
      check(text) {
        const { workloads, diagnostics } = parseCatalog('gpu-workloads.yaml', text);
        const out: string[] = [];
        if (!Array.isArray(workloads) || !Array.isArray(diagnostics)) out.push('result is not { workloads[], diagnostics[] }');
        for (const w of workloads) {
          const counts = w.type === 'inference' ? [w.gpusPerReplica, w.replicas] : [w.gpusPerJob, w.runtime, w.jobsPerDay];
          if (counts.some((n) => !Number.isFinite(n) || n < 0)) out.push(`workload ${w.name} kept with counts ${counts.join(',')}`);
        }
        return out;
      },
    },
    {
      id: 'loader:policy',
      inputs: policyTexts(),
      check(text) {
        const { policy } = parsePolicy('.github/gpu-justify.yml', text);
        const out: string[] = [];
        // No repository file may point the App at an endpoint (SSRF): only a source name passes.
        if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(policy.telemetry)) out.push(`telemetry accepted as ${JSON.stringify(policy.telemetry)}`);
        if (!['advise', 'enforce'].includes(policy.mode)) out.push(`mode ${String(policy.mode)}`);
        for (const n of [policy.window, policy.headroom, policy.idleBelow]) if (!Number.isFinite(n) || n < 0) out.push(`number ${n}`);
        if (Object.getPrototypeOf(policy.prices) !== Object.prototype && Object.getPrototypeOf(policy.prices) !== null) {
          out.push('prices has a foreign prototype');
        }
        return out;
      },
    },
    {
      id: 'comment-round-trip',
      inputs: fc.oneof({ weight: 3, arbitrary: roundTripInputs() }, commentBodies()),
      check: commentRoundTripProblems,
    },
    {
      id: 'redactor-encodings',
      inputs: redactorInputs(),
      check: redactorProblems,
    },
    {
      id: 'command-parser',
      inputs: commentBodies(),
      check(text) {
        const command = parseCommand(text);
        if (command === null) return [];
        const out: string[] = [];
        // eslint-disable-next-line no-control-regex -- a NUL left in the reason is what this looks for.
        if (command.kind === 'override' && (command.reason.length > 500 || /[\r\n\u0000]/.test(command.reason)))
          out.push('override reason not cleaned');
        if (command.kind === 'invalid' && command.given.length > 60) out.push('invalid command echoed unclipped');
        // Only the first line counts: a command below the first line must never run.
        const first = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
        if (!first.toLowerCase().includes('/gpu-justify')) out.push('command taken from below the first line');
        return out;
      },
    },
  ];
}
