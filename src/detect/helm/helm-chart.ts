// values.yaml, values-prod.yaml, values.gpu.yaml, prod-values.yaml.
const VALUES_RE = /(^|\/)([\w.-]*[-.])?values([-.][\w.-]*)?\.ya?ml$/i;

/** Objects that declare GPU capacity, as a chart's templates spell them. */
export const CAPACITY_KIND_RE =
  /^\s*["']?kind["']?\s*:\s*["']?(ClusterQueue|NodePool|ResourceFlavor|MachineDeployment|MachinePool|Workspace|ClusterAutoscaler|MachineSet)\b/m;

/** `.Values.a.b` in an expression; `$.Values` from inside a range. */
export const VALUES_REF_RE = /\$?\.Values((?:\.[A-Za-z_][\w-]*)+)/g;

/** A values file a chart is installed with. */
export function isHelmValuesPath(path: string): boolean {
  return VALUES_RE.test(path);
}
