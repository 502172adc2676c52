import type {
  CapacityChange,
  Finding,
  MissingEvidence,
  OutcomeCost,
  ReviewResult,
  ServingCapacity,
  UtilisationLadder,
} from '../domain/index.js';
import { evidenceJson } from './bound-proof.js';
import { costNoteText, findingText, flagText, servingAdvice } from './findings.js';
import { missingWords } from './missing-words.js';
import { changeSharing } from '../domain/index.js';
import { coverageJson } from './coverage.js';
import { screenNumbers } from './screen-numbers.js';
import { reviewReason } from './reasons.js';

/** A change in the shape of `detect --json` (docs/json.md). */
export function changeJson(c: CapacityChange) {
  const sharing = changeSharing(c);
  return {
    file: c.file,
    line: c.line,
    kind: c.kind,
    name: c.name,
    gpuModel: c.gpuModel,
    ...(c.gpuModelBefore === undefined ? {} : { gpuModelBefore: c.gpuModelBefore }),
    gpusBefore: c.gpusBefore,
    gpusAfter: c.gpusAfter,
    delta: c.delta,
    ...(c.usdPerGpuHour === undefined ? {} : { usdPerGpuHour: c.usdPerGpuHour }),
    ...(c.usdPerMonthDelta === undefined ? {} : { usdPerMonthDelta: c.usdPerMonthDelta }),
    ...(sharing === null ? {} : { sharing }),
  };
}

/** An item of missing evidence in words, with its code when analysis found it (docs/json.md). */
function missingJson(m: MissingEvidence) {
  const words = missingWords(m, 'cli');
  return { what: words.what, how: words.how, ...('code' in m ? { code: m.code } : {}) };
}

/** A finding with its sentence and its code (docs/json.md). */
function findingJson(f: Finding) {
  return {
    lever: f.lever,
    gpusFreed: f.gpusFreed,
    meetsNeed: f.meetsNeed,
    summary: findingText(f),
    code: f.detail.code,
    evidence: f.evidence.map(evidenceJson),
    ...(f.confidence === undefined ? {} : { confidence: f.confidence }),
  };
}

function costJson(c: OutcomeCost) {
  const { note, evidence, ...rest } = c;
  return { ...rest, note: costNoteText(note), noteCode: note.code, evidence };
}

function ladderJson(l: UtilisationLadder) {
  return { ...l, flags: l.flags.map((f) => ({ kind: f.kind, message: flagText(f) })) };
}

function servingJson(s: ServingCapacity) {
  const { evidence, limitStats, ...rest } = s;
  return { ...rest, advice: servingAdvice(s), ...(limitStats === undefined ? {} : { limitStats }), evidence };
}

/** `review --format json` (docs/json.md); keys are only ever added. */
export function reviewJson(result: ReviewResult) {
  return {
    verdict: result.verdict,
    gpusRequested: result.gpusRequested,
    gpusNeeded: result.gpusNeeded,
    changes: result.changes.map(changeJson),
    findings: result.findings.map(findingJson),
    missingEvidence: result.missingEvidence.map(missingJson),
    diagnostics: result.diagnostics,
    reviews: result.reviews.map((r) => ({
      file: r.change.file,
      line: r.change.line,
      name: r.change.name,
      verdict: r.verdict,
      need: r.need,
      gpusNeeded: r.gpusNeeded,
      workloads: r.workloads,
      reason: reviewReason(r),
      reasonCode: r.reason.code,
      evidence: r.evidence.map(evidenceJson),
      ...(r.confidence === undefined ? {} : { confidence: r.confidence }),
      ...(r.needWithoutLevers === undefined ? {} : { needWithoutLevers: r.needWithoutLevers }),
      ...(r.combination === undefined ? {} : { combination: r.combination }),
      screen: screenNumbers(r),
      ...(r.ladders === undefined ? {} : { ladders: r.ladders.map(ladderJson) }),
      ...(r.serving === undefined ? {} : { serving: r.serving.map(servingJson) }),
      ...(r.costs === undefined ? {} : { costs: r.costs.map(costJson) }),
      ...(r.runtimes === undefined ? {} : { runtimes: r.runtimes }),
      ...(r.inferred === undefined ? {} : { inferredWorkloads: r.inferred }),
      ...(r.demand === undefined ? {} : { observedDemand: r.demand }),
      ...(r.deadlines === undefined ? {} : { deadlines: r.deadlines }),
      ...(r.sharing === undefined ? {} : { sharing: r.sharing }),
      ...(r.modelSwap === undefined ? {} : { modelSwap: r.modelSwap }),
    })),
    ...(result.catalogDemand === undefined ? {} : { catalogDemand: result.catalogDemand }),
    ...(result.coverage === undefined ? {} : { coverage: coverageJson(result.coverage) }),
    mode: result.context.mode,
    ...(result.context.headSha === undefined ? {} : { headSha: result.context.headSha }),
    ...(result.context.telemetry === undefined ? {} : { telemetry: result.context.telemetry }),
  };
}
