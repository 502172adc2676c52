import { readString, readWholeCount } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { accountedOf } from '../parser.js';
import type { AccountedLines } from '../parser.js';
import { mapGet, nodeLine, nodeSource, seqItems } from '../kit/yaml-nodes.js';
import { classGpus, isInstanceClass } from './deckhouse-instance-class.js';
import type { ClassGpus } from './deckhouse-instance-class.js';

const KIND = 'deckhouse-nodegroup' as const;
const MARKERS = /deckhouse\.io\//;

/**
 * Deckhouse Kubernetes Platform NodeGroups (`deckhouse.io` NodeGroup, node-manager module). A
 * `CloudEphemeral` group is grown by the cluster-autoscaler up to `cloudInstances.maxPerZone`
 * machines in each zone of `cloudInstances.zones` (all the cloud's zones when none is listed), each
 * of the instance class its `classReference` names (Deckhouse, node-manager "NodeGroup" reference).
 * The class is an object of its own, often in another file: a group whose class is not in its
 * file is not followed while its bound or its class reference changes, as the fingerprint tells.
 */
export const deckhouseNodeGroupParser = yamlParser('deckhouse-nodegroup', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const classes = new Map<string, Manifest>();
  for (const m of scan.manifests) if (isInstanceClass(m) && m.name !== null) classes.set(`${m.kind ?? ''}/${m.name}`, m);
  const read: AccountedLines[] = [];
  for (const m of scan.manifests) {
    if (m.kind !== 'NodeGroup' || !(m.apiVersion ?? '').startsWith('deckhouse.io/')) continue;
    const cls = readGroup(m, classes, found);
    // The class a group of this file was read with is read too: its machine type is no stray GPU name.
    if (cls !== null) read.push({ file: path, from: cls.line, to: cls.line, object: true });
  }
  const result = found.result(text);
  return { ...result, accounted: [...accountedOf(result), ...read] };
});

/** Reads one group; returns the instance class of the file it was read with, if any. */
function readGroup(m: Manifest, classes: ReadonlyMap<string, Manifest>, found: Findings): Manifest | null {
  const spec = mapGet(m.root, 'spec');
  const cloud = mapGet(spec, 'cloudInstances');
  if (cloud === undefined || cloud === null) return null;
  const name = m.name ?? '(unnamed)';
  const where = `Deckhouse NodeGroup ${name}`;
  const ref = mapGet(cloud, 'classReference');
  const refKind = readString(mapGet(ref, 'kind'), m.ctx);
  const refName = readString(mapGet(ref, 'name'), m.ctx);
  const refLine = nodeLine(ref, m.ctx.lc) ?? m.line;
  const key = refKind !== null && refName !== null && 'value' in refKind && 'value' in refName ? `${refKind.value}/${refName.value}` : null;
  const cls = key === null ? undefined : classes.get(key);
  if (cls === undefined) {
    const named = key ?? (nodeSource(ref, m.ctx.text).trim() || 'no class');
    found.notFollowed.push({
      file: m.ctx.file,
      line: refLine,
      reason: 'count-unknown',
      subject: `NodeGroup ${name}`,
      needs: `its machines are of the instance class ${named}, which is not in this file: declare the class in the same file as its NodeGroup, or check its machine type by hand`,
      fingerprint: JSON.stringify([nodeSource(mapGet(spec, 'nodeType'), m.ctx.text), nodeSource(cloud, m.ctx.text)]),
    });
    return null;
  }
  const perMachine: ClassGpus = classGpus(cls);
  if (perMachine.kind === 'cpu') return cls;
  if (perMachine.kind === 'unknown') {
    found.note(refLine, 'warning', `${where}: its instance class ${key ?? ''} ${perMachine.why}; its GPUs are not counted`);
    found.unknown(KIND, name, refLine);
    return cls;
  }
  const max = readWholeCount(mapGet(cloud, 'maxPerZone'), m.ctx, refLine);
  const zones = seqItems(mapGet(cloud, 'zones'));
  if (max === null || !max.ok || zones.length === 0) {
    const why =
      max === null ? 'sets no maxPerZone' : !max.ok ? `maxPerZone ${max.error}` : 'lists no zones, so it grows in every zone of the cloud';
    const line = max?.line ?? refLine;
    found.note(line, 'warning', `${where} ${why}; with ${perMachine.gpus} GPUs per machine its GPUs are not counted`);
    found.unknown(KIND, name, line);
    return cls;
  }
  const machines = max.value * zones.length;
  const gpus = machines * perMachine.gpus;
  found.decls.push({
    file: m.ctx.file,
    line: max.line,
    kind: KIND,
    name,
    gpuModel: perMachine.model,
    gpus,
    gpuStep: perMachine.gpus,
    parts: [
      {
        label: `NodeGroup ${name}: ${max.value} per zone × ${zones.length} zones × ${perMachine.type}`,
        resource: PRIMARY_GPU_RESOURCE,
        gpus,
        line: max.line,
      },
    ],
  });
  return cls;
}
