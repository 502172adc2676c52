import { quoted } from './escape.js';
import type { LinkHint, MigScope, MissingEvidence, MissingItem, MissingText, Owner, Suggestion, Target } from '../domain/index.js';
import { HOW_MIG_ACTIVITY, HOW_POD_MAPPING, HOW_POOL_DCGM, MIG_PROFILE_LABEL } from '../domain/index.js';
import type { Surface } from './surface.js';
import { notFollowedEvidence } from './not-followed.js';
import { expandProblemWords } from './stagger-problems.js';

const DRAFT = '`gpu-justify init` in a checkout drafts it from the repository’s own manifests';

function target(t: Target): string {
  return t.kind === 'queue' ? `ClusterQueue ${t.name}` : `pool ${t.name}`;
}

/** `node pool a`, `workload b`. */
function migScope(s: MigScope): string {
  return `${s.kind === 'pool' ? 'node pool' : s.kind} ${s.name}`;
}

/** The DCGM fields a whole-GPU rung of a MIG scope is read from. */
const WHOLE_FIELD: Record<'gpu-util' | 'compute', string> = {
  'gpu-util': 'DCGM_FI_DEV_GPU_UTIL',
  compute: 'DCGM_FI_PROF_SM_ACTIVE or DCGM_FI_PROF_GR_ENGINE_ACTIVE',
};

function owner(o: Owner): string {
  return o.alternative === undefined ? o.workload : `${o.workload} alternative ${o.alternative}`;
}

/** A share to one decimal, as the load-test items have always stated it. */
function share(x: number): string {
  return `${Math.round(x * 1000) / 10}%`;
}

function round3(x: number): number {
  return Number.parseFloat(x.toPrecision(3));
}

/** Entries that were probably meant to link to the change, and what to write instead; empty when none. */
function linkHintText(t: Target, hints: readonly LinkHint[]): string {
  if (hints.length === 0) return '';
  const field = t.kind;
  const described = t.kind === 'queue' ? 'ClusterQueue' : 'node pool';
  const said = hints.map((h) =>
    h.field === field
      ? `${h.at} (${h.workload}) has ${quoted(`${field}: ${h.value}`)}`
      : `${h.at} (${h.workload}) has ${quoted(`${h.field}: ${h.value}`)}, but a ${described} links by ${quoted(`${field}:`)}`,
  );
  const shown = said.slice(0, 3).join('; ');
  const more = said.length > 3 ? `; and ${said.length - 3} more` : '';
  return `. Close but not linked: ${shown}${more}. A workload links only by the exact name this change declares, ${quoted(`${field}: ${t.name}`)} (after any Kustomize namePrefix/nameSuffix or Terraform interpolation, not the Terraform resource label)`;
}

/** Where OpenCost is configured: an environment variable where gpu-justify runs, or a flag of the CLI. */
function opencostSetting(surface: Surface): string {
  return surface === 'cli' ? '`--opencost <url>`' : '`OPENCOST_URL`';
}

function loadTestStep(m: Extract<MissingItem, { code: 'load-test-step' }>): MissingText {
  const { slo, slowest } = m;
  const ms = (v: number | null) => (v === null ? 'not reported' : `${round3(v)} ms`);
  const wanted = [
    `p95 ≤ ${slo.p95LatencyMs} ms`,
    ...(slo.ttftP95Ms === undefined ? [] : [`TTFT p95 ≤ ${slo.ttftP95Ms} ms`]),
    ...(slo.errorRate === undefined ? [] : [`errors ≤ ${share(slo.errorRate)}`]),
  ].join(', ');
  const measured =
    slowest === null
      ? 'it has no step with a positive rate'
      : `its lowest rate, ${round3(slowest.rate)} req/s (${slowest.label}), measured p95 ${ms(slowest.p95E2eMs)}` +
        `${slo.ttftP95Ms === undefined ? '' : `, TTFT p95 ${ms(slowest.ttftP95Ms)}`}` +
        `${slo.errorRate === undefined ? '' : `, errors ${slowest.errorRate === null ? 'not reported' : share(slowest.errorRate)}`}`;
  return {
    what: `a load-test step of ${owner(m.owner)} that meets its SLO (${wanted})`,
    how:
      `no step of ${m.path} meets it: ${measured}. Run the load test again at lower request rates against one replica; ` +
      `if no rate meets the SLO, the SLO or the deployment (model, GPU, settings) needs changing before replicas can be sized. ` +
      'Until then the service is counted at its declared replicas',
  };
}

/** `write \`gpusPerJob\`, not \`gpusPerJb\``: a typo's correction. */
function correction(s: Suggestion): string {
  return `write ${quoted(s.meant)}, not ${quoted(s.typed)}`;
}

/**
 * The fix itself, where an item has one to make in a file: the correction of a typo, the line to
 * fix. The first screen leads with it ("Fix `gpu-workloads.yaml:6`: …") rather than with what
 * is missing; null for items whose remedy is to add something.
 */
export function fixFirst(m: MissingEvidence): string | null {
  if (!('code' in m)) return null;
  switch (m.code) {
    case 'catalog-entry-invalid': {
      const entry = m.workload === null ? 'the entry' : m.workload;
      const fix = m.suggestion ? correction(m.suggestion) : m.message;
      return `Fix ${quoted(m.at)}: ${fix}; until then ${entry} is left out of the need of ${target(m.target)}`;
    }
    case 'catalog-unreadable':
      return `Fix ${quoted(m.at)} in the workload catalog ${m.catalogFile}: ${m.message}`;
    case 'file-unreadable':
      return `Fix ${quoted(m.at)}: ${m.message}`;
    default:
      return null;
  }
}

/** Demand a pull request declares and nothing measured: what would make it count. */
function declaredDemandWords(m: Extract<MissingItem, { code: 'declared-demand' }>, surface: Surface): MissingText {
  const what = `measured demand of ${m.workload} (${m.gpus} GPUs at once), which this pull request ${m.change === 'added' ? 'adds to' : 'raises in'} ${m.catalogFile}`;
  const measured =
    m.type === 'job'
      ? "telemetry of its runs through its entry's `selector` (the GPUs its pods requested, at their peak and per day, reaching what it declares)"
      : 'its observed request rate (`selector:`) against a load test already on the base branch (`loadTest:`)';
  const approval =
    surface === 'cli'
      ? 'or, on the pull request, an approval by someone the policy lets override'
      : 'or an approval: `/gpu-justify override <reason>` by someone the policy lets override';
  return {
    what,
    how:
      `a pull request cannot write the demand that justifies it, so it is ${m.change === 'added' ? 'left out of the need' : 'judged as the base branch has it'} ` +
      `until ${measured} shows it, ${approval}; or merge the catalog entry first`,
  };
}

/** One item the review lacks, worded for the surface it is read on. */
function missingItemWords(m: MissingItem, surface: Surface): MissingText {
  switch (m.code) {
    case 'catalog-unreadable':
      return { what: `a readable workload catalog (${m.catalogFile})`, how: `fix ${m.at}: ${m.message}` };
    case 'no-catalog':
      return {
        what: `a workload catalog (${m.catalogFile})`,
        how: `add ${m.catalogFile} at the repository root listing the jobs that run in ${target(m.target)}: ${DRAFT} (fields: docs/catalog.md)`,
      };
    case 'catalog-entry-invalid':
      return {
        what: `a valid catalog entry${m.workload === null ? '' : ` for ${m.workload}`} (${m.at}), which names ${target(m.target)}`,
        how: m.suggestion
          ? `at ${m.at}, ${correction(m.suggestion)}; until then the entry is left out of the need`
          : `fix ${m.at}: ${m.message}; until then the entry is left out of the need`,
      };
    case 'no-linked-workloads':
      return {
        what: `workloads that run in ${target(m.target)}`,
        how:
          `document them in ${m.catalogFile} with ${quoted(`${m.target.kind}: ${m.target.name}`)}${linkHintText(m.target, m.hints)}` +
          (m.emptyCatalog ? `; ${DRAFT}` : ''),
      };
    case 'schedulable-window':
      return { what: `a schedulable window for ${m.workload}`, how: expandProblemWords(m.problem) };
    case 'declared-demand':
      return declaredDemandWords(m, surface);
    case 'service-capacity-unmeasured':
      return {
        what: `measured capacity of ${m.services.join(', ')}`,
        how: 'the service is counted at its declared replicas; a load test (`loadTest:`) and Prometheus telemetry (docs/telemetry.md) would show whether fewer replicas meet its SLO',
      };
    case 'sharing-factor-unknown':
      return {
        what: `the GPU sharing factor of ${target(m.target)} (${m.sharingCode})`,
        how: `tie ${m.source.name} (${m.source.at}) to the pool: a \`nvidia.com/device-plugin.config\` node label, the default device-plugin config, or the node class the pool uses; docs/change-kinds.md`,
      };
    case 'deadline':
      return {
        what: `a deadline for ${m.workload}`,
        how: `state when its runs must be done (\`window.deadline\` of its entry in ${m.catalogFile}); the review shows what each deadline would need`,
      };
    case 'selector-for-runtime':
      return {
        what: `observed runtime of ${m.workload}`,
        how: `add \`selector:\` (namespace, pod or container labels) to ${m.workload} in the catalog so its GPU requests can be timed`,
      };
    case 'selector-for-request-rate':
      return {
        what: `observed request rate of ${m.workload}`,
        how: `add \`selector:\` (the labels of its vLLM /metrics series) to ${m.workload} in the catalog`,
      };
    case 'slo':
      return {
        what: `the SLO of ${owner(m.owner)}`,
        how: `add \`slo: { p95LatencyMs: … }\` (and ttftP95Ms, errorRate if they matter) to ${owner(m.owner)} in the catalog`,
      };
    case 'load-test':
      return {
        what: `a load test of ${owner(m.owner)}`,
        how: `add \`loadTest: <path>\` to ${owner(m.owner)} in the catalog: a GuideLLM report or \`vllm bench serve --save-result\` output against one replica`,
      };
    case 'load-test-unread':
      return {
        what: `load test ${m.path}`,
        how: `${m.problem ?? `${m.path} was not read`}; save a GuideLLM report or \`vllm bench serve --save-result\` output there`,
      };
    case 'load-test-step':
      return loadTestStep(m);
    case 'opencost-unanswered':
      return {
        what: `GPU cost from OpenCost: ${m.message}`,
        how: `check ${opencostSetting(surface)} and that OpenCost reaches the cluster; the catalog prices are used meanwhile`,
      };
    case 'opencost-no-cost':
      return {
        what: `GPU cost of namespace ${m.namespace} from OpenCost: it reported none over the window`,
        how: `check that OpenCost prices the GPUs of ${m.target} (node_gpu_hourly_cost); the catalog prices are used meanwhile`,
      };
    case 'gpu-price':
      return {
        what: `the price per GPU-hour of ${m.gpuModel ?? `the GPUs of ${m.target}`}`,
        how: `add it to \`prices:\` in .github/gpu-justify.yml, or configure OpenCost (${opencostSetting(surface)})`,
      };
    case 'quality-threshold':
      return {
        what: `the quality threshold of ${m.workload}`,
        how: `add \`qualityThreshold:\` to ${m.workload} (or outcomes.qualityThreshold) in the catalog`,
      };
    case 'alternative-quality':
      return {
        what: `the quality of alternative ${m.alternative}`,
        how: `add \`quality:\` to alternative ${m.alternative} of ${m.workload} in the catalog`,
      };
    case 'verified-outcomes':
      return {
        what: `verified outcomes of ${m.workload}`,
        how: `add \`outcomes: { verified: <PromQL> }\` to ${m.workload} in the catalog so cost per verified outcome can be compared`,
      };
    case 'not-followed':
      return notFollowedEvidence(m.item);
    case 'file-unreadable':
      return { what: `a readable ${m.file}`, how: `fix ${m.at}: ${m.message}` };
    case 'idle-pods-unnamed':
      return {
        what: m.dcgmOnNodes
          ? `idle pods in node pool ${m.pool}: pods there request GPUs, but no DCGM series names a pod`
          : `idle pods in node pool ${m.pool}: pods there request GPUs, but no DCGM series is on its nodes`,
        how: `${m.dcgmOnNodes ? HOW_POD_MAPPING : HOW_POOL_DCGM}; until then only the catalog's workloads are checked for idle GPUs`,
      };
    case 'idle-mig-pods-unnamed':
      return {
        what: `idle MIG instances in node pool ${m.pool}: pods there request MIG devices, but no DCGM series of a MIG instance names a pod`,
        how: `${HOW_POD_MAPPING}; dcgm-exporter releases before 4.x leave namespace and pod empty on MIG instances, so run a current one`,
      };
    case 'mig-instance-activity':
      return {
        what: `busy-ness of the MIG instances of ${migScope(m.scope)}: no DCGM_FI_PROF_GR_ENGINE_ACTIVE series there carries ${MIG_PROFILE_LABEL}`,
        how: HOW_MIG_ACTIVITY,
      };
    case 'mig-whole-activity':
      return {
        what: `${WHOLE_FIELD[m.field]} of the whole GPUs of ${migScope(m.scope)}: no series without ${MIG_PROFILE_LABEL} there`,
        how: 'run NVIDIA dcgm-exporter (GPU Operator) with Kubernetes pod mapping on every GPU node and scrape it into this Prometheus',
      };
    case 'mig-allocation-unseen':
      return {
        what: `GPUs allocated in ${migScope(m.scope)}: DCGM shows its GPUs or MIG instances in use, but kube-state-metrics shows no pod requesting nvidia.com/gpu or nvidia.com/mig-* there`,
        how: 'scrape kube-state-metrics (kube_pod_container_resource_requests) into this Prometheus, with the pods of these nodes',
      };
    case 'lending-limit-ambiguous':
      return {
        what: `the lendingLimit of ${list(m.queues)} in cohort ${m.cohort}: Kueue reports 0, which before v0.19 also meant "no limit"; taken as lending nothing`,
        how: 'put their ClusterQueues in this repository, or run Kueue v0.19 or later (it reports an unset limit as +Inf)',
      };
    case 'replica-compute':
      return {
        what: `the compute each replica of ${m.workload} uses: DCGM reports its framebuffer but neither DCGM_FI_PROF_SM_ACTIVE nor DCGM_FI_PROF_GR_ENGINE_ACTIVE for its pods, so no MIG profile or time-slice can be sized`,
        how: 'run dcgm-exporter with its profiling (DCP) fields: DCGM_FI_PROF_GR_ENGINE_ACTIVE is in its default counters; add DCGM_FI_PROF_SM_ACTIVE to the counters CSV for the finer measure',
      };
    case 'lending-limit-unknown':
      return {
        what: `the lendingLimit of ${list(m.queues)} in cohort ${m.cohort}: no file of this pull request declares them and Kueue's kueue_cluster_queue_lending_limit has no series for them; taken as lending nothing`,
        how: 'set metrics.enableClusterQueueResources: true in the Kueue configuration (it exports the lending limits with the quotas), or put their ClusterQueues in this repository',
      };
  }
}

function list(names: readonly string[]): string {
  return names.length === 1 ? `ClusterQueue ${names[0] ?? ''}` : `ClusterQueues ${names.join(', ')}`;
}

/** Missing evidence in words: telemetry's items as they are, analysis' worded for the surface. */
export function missingWords(m: MissingEvidence, surface: Surface = 'pull-request'): MissingText {
  return 'code' in m ? missingItemWords(m, surface) : m;
}
